package io.github.lockable.store.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;

/**
 * Redis did not answer in time: within the store's timeout, Lettuce's command timeout, or
 * the connect timeout, as the message says.
 */
final class RedisTimeoutException extends LockStoreException {

	@Nullable
	private final transient NativeConnection sentOn;

	RedisTimeoutException(Duration timeout, @Nullable NativeConnection sentOn) {
		this(((sentOn != null) ? "Redis did not answer within " : "No connection to Redis within ")
				+ timeout.toMillis() + "ms (lockable.acquire-timeout)", sentOn, null);
	}

	RedisTimeoutException(String message, @Nullable NativeConnection sentOn, @Nullable Throwable cause) {
		super(message, "TIMEOUT", cause);
		this.sentOn = sentOn;
	}

	/**
	 * The connection the command went out on before the timeout, so that it may still run;
	 * {@code null} when it never went out.
	 */
	@Nullable
	NativeConnection sentOn() {
		return this.sentOn;
	}

}
