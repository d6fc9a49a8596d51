package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockStoreException;

/**
 * A connection of the store's own, opened with Lettuce's asynchronous connect, at most one
 * open or opening at a time.
 * <p>
 * Every caller shares the one attempt for as long as its own deadline allows. An attempt
 * outlives the callers that gave up on it; a failed one is forgotten, so the next call
 * tries again. Lettuce reconnects a connection whose socket closed, queueing commands
 * meanwhile; a connection found closed for good is forgotten.
 * <p>
 * A connection that stays silent for longer than the silence limit (see
 * {@link NativeConnection}) is closed, and the next call opens another: Lettuce never
 * reconnects one that only went quiet. It is the store's own, so no other Redis user of
 * the application loses its connection with it.
 */
final class RedisConnections {

	private static final Logger logger = LoggerFactory.getLogger(RedisConnections.class);

	/** The shortest silence after which a connection is taken for dead. */
	private static final Duration MIN_SILENCE_LIMIT = Duration.ofSeconds(5);

	private final StoreConnectionFactory client;

	private final long silenceLimitNanos;

	private final RedisTimeouts timeouts;

	private final Object monitor = new Object();

	private volatile @Nullable NativeConnection connection;

	/** The attempt in progress, or null; guarded by the monitor. */
	private @Nullable CompletableFuture<NativeConnection> opening;

	/**
	 * The connections of the store's client; nothing opened yet.
	 * @param client the store's own client
	 * @param silenceLimit how long a connection may answer nothing, counted from a command
	 * that timed out unanswered, before it is taken for dead
	 * @param timeouts the client's timeouts, to name the one that fired
	 */
	RedisConnections(StoreConnectionFactory client, Duration silenceLimit, RedisTimeouts timeouts) {
		this.client = Objects.requireNonNull(client, "client must not be null");
		this.silenceLimitNanos = silenceLimit.toNanos();
		this.timeouts = timeouts;
	}

	/**
	 * How long a connection may answer nothing, counted from a command that timed out
	 * unanswered, before it is dropped: twice the timeout, and at least 5 seconds. A server
	 * that stalls for less (a slow script, a fork, a pause during a failover) keeps the
	 * connection, so the releases queued on it still run when it answers again; a
	 * half-open connection is replaced within a few timeouts.
	 * @param timeout the store's timeout
	 * @return the silence limit
	 */
	static Duration silenceLimit(Duration timeout) {
		Duration twice = timeout.multipliedBy(2);
		return (twice.compareTo(MIN_SILENCE_LIMIT) > 0) ? twice : MIN_SILENCE_LIMIT;
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
		CompletableFuture<NativeConnection> attempt;
		synchronized (this.monitor) {
			NativeConnection current = this.connection;
			if (current != null) {
				return CompletableFuture.completedFuture(current);
			}
			if (this.opening != null) {
				return this.opening;
			}
			attempt = new CompletableFuture<>();
			this.opening = attempt;
		}
		CompletableFuture<? extends StatefulConnection<byte[], byte[]>> connecting;
		try {
			connecting = this.client.connect();
		}
		catch (RuntimeException ex) {
			connecting = CompletableFuture.failedFuture(ex);
		}
		connecting.thenCompose(RedisConnections::asked).whenComplete((opened, ex) -> {
			if (ex != null) {
				failed(attempt, ex);
			}
			else {
				opened(attempt, opened);
			}
		});
		return attempt;
	}

	/**
	 * The timer of the client that opens connections, started if it is not; for the calls
	 * that wait for a connection.
	 * @return the client's timer
	 */
	Timer timer() {
		return this.client.timer();
	}

	/**
	 * A connection just opened, with what its server has ({@link RedisServerFeatures}),
	 * asked before any call runs on it.
	 */
	private static CompletableFuture<NativeConnection> asked(StatefulConnection<byte[], byte[]> opened) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = commandsOf(opened);
		return RedisServerFeatures.detect(commands)
			.thenApply((server) -> new NativeConnection(opened, commands, server));
	}

	private static RedisClusterAsyncCommands<byte[], byte[]> commandsOf(StatefulConnection<byte[], byte[]> connection) {
		if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
			return cluster.async();
		}
		return ((StatefulRedisConnection<byte[], byte[]>) connection).async();
	}

	private void failed(CompletableFuture<NativeConnection> attempt, Throwable failure) {
		synchronized (this.monitor) {
			if (this.opening == attempt) {
				this.opening = null;
			}
		}
		Throwable ex = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		LockStoreException timedOut = this.timeouts.ofConnect(ex);
		attempt.completeExceptionally((timedOut != null) ? timedOut : (ex instanceof LockStoreException) ? ex
				: new LockStoreException("Cannot connect to Redis: " + ex.getMessage(), "UNREACHABLE", ex));
	}

	private void opened(CompletableFuture<NativeConnection> attempt, NativeConnection opened) {
		synchronized (this.monitor) {
			if (this.opening == attempt) {
				this.opening = null;
				this.connection = opened;
				attempt.complete(opened);
				return;
			}
		}
		opened.close()
			.whenComplete((closed, ex) -> attempt.completeExceptionally(
					new LockStoreException("The Redis lock store was closed while connecting", "UNREACHABLE", null)));
	}

	/**
	 * Forgets a connection a command found broken, if it is closed for good; the next call
	 * opens another. One that Lettuce reconnects is kept.
	 * @param failed the connection the command ran on
	 */
	void invalidate(NativeConnection failed) {
		if (!failed.closed()) {
			return;
		}
		synchronized (this.monitor) {
			if (this.connection == failed) {
				this.connection = null;
			}
		}
		failed.close();
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
		silent.close();
	}

	/**
	 * Closes the store's connection; an attempt in progress closes what it opens. A later
	 * call opens again.
	 * @return completes once the connection is closed
	 */
	CompletableFuture<Void> close() {
		NativeConnection current;
		CompletableFuture<NativeConnection> attempt;
		synchronized (this.monitor) {
			current = this.connection;
			attempt = this.opening;
			this.connection = null;
			this.opening = null;
		}
		// An attempt settles once what it opened is closed.
		CompletableFuture<?> opened = (attempt != null) ? attempt.handle((connection, ex) -> null)
				: CompletableFuture.completedFuture(null);
		return (current != null) ? CompletableFuture.allOf(current.close(), opened)
				: CompletableFuture.allOf(opened);
	}

}
