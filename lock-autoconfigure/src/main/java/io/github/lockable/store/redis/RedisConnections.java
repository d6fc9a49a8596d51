package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockStoreException;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The store's connection, opened off the callers' threads, at most one open at a time.
 * <p>
 * The factory opens synchronously, for as long as Lettuce's connect and handshake timeouts
 * allow, and serializes its callers. So a dedicated daemon thread opens, and every caller
 * shares that one attempt for as long as its own deadline allows. An attempt outlives the
 * callers that gave up on it; a failed one is forgotten, so the next call tries again.
 * <p>
 * A connection that stays silent for longer than the silence limit (see
 * {@link NativeConnection}) is dropped, its native connection included, and the next call
 * opens another: Lettuce reconnects a connection that was closed, but never one that only
 * went quiet.
 */
final class RedisConnections implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisConnections.class);

	private final Supplier<NativeConnection> opener;

	/** What else to do when a silent connection is dropped, before it is closed. */
	private final Runnable onSilentDrop;

	private final long silenceLimitNanos;

	private final RedisTimeouts timeouts;

	private final Object monitor = new Object();

	private volatile @Nullable NativeConnection connection;

	/** The attempt in progress, or null; guarded by the monitor. */
	private @Nullable CompletableFuture<NativeConnection> opening;

	private RedisConnections(Supplier<NativeConnection> opener, Duration silenceLimit, RedisTimeouts timeouts,
			Runnable onSilentDrop) {
		this.opener = opener;
		this.timeouts = timeouts;
		this.silenceLimitNanos = silenceLimit.toNanos();
		this.onSilentDrop = onSilentDrop;
	}

	/**
	 * The factory's connection: its shared native connection, unless the factory shares
	 * none, then a dedicated one from its pool. A silent shared connection is reset in the
	 * factory, so that neither the store nor the application's other Redis users get it again.
	 * @param connectionFactory the application's factory
	 * @param silenceLimit how long a connection may answer nothing, counted from a command
	 * that timed out unanswered, before it is taken for dead
	 * @return the connections, nothing opened yet
	 */
	static RedisConnections shared(LettuceConnectionFactory connectionFactory, Duration silenceLimit) {
		Objects.requireNonNull(connectionFactory, "connectionFactory must not be null");
		return new RedisConnections(() -> openShared(connectionFactory), silenceLimit,
				RedisTimeouts.of(connectionFactory), () -> {
			if (connectionFactory.getShareNativeConnection()) {
				connectionFactory.resetConnection();
			}
		});
	}

	/**
	 * A connection of the store's own, opened from the factory's client (standalone or
	 * Sentinel, never Cluster), so that a blocking command on it holds up no one else.
	 * @param connectionFactory the application's factory
	 * @param silenceLimit as for {@link #shared}
	 * @return the connections, nothing opened yet
	 */
	static RedisConnections dedicated(LettuceConnectionFactory connectionFactory, Duration silenceLimit) {
		Objects.requireNonNull(connectionFactory, "connectionFactory must not be null");
		return new RedisConnections(() -> openDedicated(connectionFactory), silenceLimit,
				RedisTimeouts.of(connectionFactory), () -> {
		});
	}

	/**
	 * The open connection, unless it has been silent for longer than the limit, in which
	 * case it is dropped.
	 * @return the connection, or null when none is open
	 */
	@Nullable NativeConnection current() {
		NativeConnection current = this.connection;
		if (current != null && current.silentFor(System.nanoTime(), this.silenceLimitNanos)) {
			drop(current);
			return null;
		}
		return current;
	}

	/**
	 * The open connection, or the attempt to open it, started if none runs. Never blocks
	 * for the connection itself.
	 * @return a future of the connection; it fails with a {@link LockStoreException}
	 */
	CompletableFuture<NativeConnection> opening() {
		synchronized (this.monitor) {
			NativeConnection current = this.connection;
			if (current != null) {
				return CompletableFuture.completedFuture(current);
			}
			if (this.opening == null) {
				CompletableFuture<NativeConnection> attempt = new CompletableFuture<>();
				this.opening = attempt;
				// Started by whichever caller comes first: it must not inherit that caller's
				// thread locals (a request's, a security context).
				Thread opener = new Thread(null, () -> open(attempt), "lockable-redis-connect", 0, false);
				opener.setDaemon(true);
				opener.start();
			}
			return this.opening;
		}
	}

	private void open(CompletableFuture<NativeConnection> attempt) {
		NativeConnection opened;
		try {
			opened = this.opener.get();
		}
		catch (Throwable ex) {
			forget(attempt);
			LockStoreException timedOut = this.timeouts.ofConnect(ex);
			attempt.completeExceptionally((timedOut != null) ? timedOut : (ex instanceof LockStoreException) ? ex
					: new LockStoreException("Cannot connect to Redis: " + ex.getMessage(), "UNREACHABLE", ex));
			return;
		}
		synchronized (this.monitor) {
			if (this.opening == attempt) {
				this.opening = null;
				this.connection = opened;
				attempt.complete(opened);
				return;
			}
		}
		opened.close();
		attempt.completeExceptionally(
				new LockStoreException("The Redis lock store was closed while connecting", "UNREACHABLE", null));
	}

	private void forget(CompletableFuture<NativeConnection> attempt) {
		synchronized (this.monitor) {
			if (this.opening == attempt) {
				this.opening = null;
			}
		}
	}

	private static NativeConnection openShared(LettuceConnectionFactory connectionFactory) {
		RedisConnection connection;
		try {
			connection = connectionFactory.getConnection();
		}
		catch (RuntimeException ex) {
			throw new LockStoreException("Cannot connect to Redis: " + ex.getMessage(), "UNREACHABLE", ex);
		}
		if (!(connection instanceof LettuceConnection lettuce)) {
			connection.close();
			throw new LockStoreException("Expected a Lettuce connection but got " + connection.getClass().getName());
		}
		try {
			// Takes a dedicated connection from the factory's pool unless the native one is shared.
			return new NativeConnection(lettuce, lettuce.getNativeConnection());
		}
		catch (RuntimeException ex) {
			lettuce.close();
			throw new LockStoreException("Cannot connect to Redis: " + ex.getMessage(), "UNREACHABLE", ex);
		}
	}

	private static NativeConnection openDedicated(LettuceConnectionFactory connectionFactory) {
		try {
			// The client's own URI: the server, or the sentinels that name the master.
			RedisClient client = (RedisClient) connectionFactory.getRequiredNativeClient();
			StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
			return new NativeConnection(connection, connection.async());
		}
		catch (RuntimeException ex) {
			throw new LockStoreException("Cannot connect to Redis: " + ex.getMessage(), "UNREACHABLE", ex);
		}
	}

	/**
	 * Forgets a connection a command found broken, so the next call asks the factory
	 * again, which opens a new one if needed.
	 * @param failed the connection the command ran on
	 */
	void invalidate(NativeConnection failed) {
		synchronized (this.monitor) {
			if (this.connection == failed) {
				this.connection = null;
				failed.close();
			}
		}
	}

	/**
	 * Drops a connection that went silent, and closes it.
	 */
	private void drop(NativeConnection silent) {
		synchronized (this.monitor) {
			if (this.connection != silent) {
				return;
			}
			this.connection = null;
		}
		logger.warn("The Redis connection answered nothing for {}ms; opening another",
				Duration.ofNanos(this.silenceLimitNanos).toMillis());
		try {
			this.onSilentDrop.run();
		}
		catch (RuntimeException ex) {
			logger.debug("Failed to close a silent Redis connection", ex);
		}
		silent.close();
	}

	/**
	 * Gives back the connection this store took from the factory; an attempt in progress
	 * closes what it opens. A later call opens again.
	 */
	@Override
	public void close() {
		synchronized (this.monitor) {
			NativeConnection current = this.connection;
			this.connection = null;
			this.opening = null;
			if (current != null) {
				current.close();
			}
		}
	}

}
