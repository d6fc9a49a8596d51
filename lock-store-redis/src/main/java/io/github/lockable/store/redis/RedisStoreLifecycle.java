package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Opens the store's own connections when the application starts, and closes them, its
 * pub/sub connection and its client when it stops. The application's factory and its
 * connections are never touched.
 */
final class RedisStoreLifecycle {

	private final StoreConnectionFactory client;

	private final RedisConnections connections;

	private final RedisConnections acquiring;

	private final RedisLockNotifications notifications;

	private final RedisServerProbe probe;

	private final long timeoutNanos;

	private volatile boolean running;

	/**
	 * @param client the store's own client
	 * @param connections the connection releases and extensions use
	 * @param acquiring the connection acquires use, the same when they do not WAIT
	 * @param notifications the store's wake-ups, with their pub/sub connection
	 * @param probe the probe that looks at the server once it is connected
	 * @param timeout the store's timeout, how long a start waits for the connections
	 */
	RedisStoreLifecycle(StoreConnectionFactory client, RedisConnections connections, RedisConnections acquiring,
			RedisLockNotifications notifications, RedisServerProbe probe, Duration timeout) {
		this.client = client;
		this.connections = connections;
		this.acquiring = acquiring;
		this.notifications = notifications;
		this.probe = probe;
		this.timeoutNanos = timeout.toNanos();
	}

	/**
	 * Opens the connections, waits for them at most the timeout, then lets startup go on
	 * whatever the outcome. Once open, the server is probed in the background.
	 */
	void start() {
		CompletableFuture<NativeConnection> opening = this.connections.opening();
		opening.thenAccept(this.probe::probeAtStartup);
		CompletableFuture<NativeConnection> acquiring = this.acquiring.opening();
		long deadline = System.nanoTime() + this.timeoutNanos;
		awaitOpen(opening, deadline);
		awaitOpen(acquiring, deadline);
		this.running = true;
	}

	private static void awaitOpen(CompletableFuture<NativeConnection> opening, long deadline) {
		try {
			BoundedWait.get(opening, deadline);
		}
		catch (ExecutionException | TimeoutException ex) {
			// The first call opens or waits again, within its own timeout.
		}
	}

	void stop() {
		this.running = false;
		close();
	}

	boolean isRunning() {
		return this.running;
	}

	/**
	 * Closes the connections, the pub/sub one included, and the client, and wakes the
	 * waiters. A call after this opens again.
	 */
	void close() {
		CompletableFuture<Void> closed = CompletableFuture.allOf(this.notifications.close(), this.connections.close(),
				this.acquiring.close());
		// The client's shutdown closes every connection it still tracks, and Lettuce tracks a
		// connection until its close completes: closed twice, it WARNs "Connection is already
		// closed". The shutdown waits for the closes, at most the timeout.
		try {
			BoundedWait.get(closed, System.nanoTime() + this.timeoutNanos);
		}
		catch (ExecutionException | TimeoutException ex) {
			// The shutdown closes what is left.
		}
		this.client.close();
	}

}
