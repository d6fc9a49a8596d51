package io.github.lockable.store.redis;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.SocketOptions;
import io.netty.channel.ConnectTimeoutException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Tells the client's own timeouts apart from other failures, so that each becomes a
 * {@link RedisTimeoutException} that names the timeout that fired: Lettuce's command
 * timeout ({@code spring.data.redis.timeout}), which also bounds a new connection's
 * handshake, and the connect timeout ({@code spring.data.redis.connect-timeout}), whether
 * Lettuce reports them itself or Spring Data wraps them.
 *
 * @param commandTimeout Lettuce's command timeout
 * @param connectTimeout the connect timeout
 */
record RedisTimeouts(Duration commandTimeout, Duration connectTimeout) {

	/** Deeper cause chains are not followed (and a chain that loops ends). */
	private static final int MAX_DEPTH = 16;

	static RedisTimeouts of(LettuceConnectionFactory connectionFactory) {
		Duration connectTimeout = connectionFactory.getClientConfiguration()
			.getClientOptions()
			.map(ClientOptions::getSocketOptions)
			.map(SocketOptions::getConnectTimeout)
			.orElse(SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION);
		return new RedisTimeouts(connectionFactory.getClientConfiguration().getCommandTimeout(), connectTimeout);
	}

	/**
	 * The timeout behind a command that failed after it was sent, which may still run.
	 * @param failure how the command failed
	 * @param sentOn the connection it went out on
	 * @return the timeout, or {@code null} when the failure is not the client's timeout
	 */
	@Nullable RedisTimeoutException ofCommand(Throwable failure, NativeConnection sentOn) {
		return isCommandTimeout(failure) ? new RedisTimeoutException("Redis did not answer within Lettuce's command "
				+ "timeout, " + this.commandTimeout.toMillis() + "ms (spring.data.redis.timeout)", sentOn, failure)
				: null;
	}

	/**
	 * The timeout behind a connection that could not be opened.
	 * @param failure how opening failed
	 * @return the timeout, or {@code null} when the failure is not the client's timeout
	 */
	@Nullable RedisTimeoutException ofConnect(Throwable failure) {
		if (causedBy(failure, ConnectTimeoutException.class)) {
			return new RedisTimeoutException("No connection to Redis within the connect timeout, "
					+ this.connectTimeout.toMillis() + "ms (spring.data.redis.connect-timeout)", null, failure);
		}
		if (isCommandTimeout(failure)) {
			return new RedisTimeoutException("No connection to Redis: its handshake took longer than Lettuce's "
					+ "command timeout, " + this.commandTimeout.toMillis() + "ms (spring.data.redis.timeout)", null,
					failure);
		}
		return null;
	}

	private static boolean isCommandTimeout(Throwable failure) {
		return causedBy(failure, RedisCommandTimeoutException.class) || causedBy(failure, QueryTimeoutException.class);
	}

	private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
		Throwable current = failure;
		for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
			if (type.isInstance(current)) {
				return true;
			}
			current = current.getCause();
		}
		return false;
	}

}
