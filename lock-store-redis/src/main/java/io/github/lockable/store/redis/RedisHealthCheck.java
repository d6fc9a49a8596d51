package io.github.lockable.store.redis;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockStoreHealth.Status;

/**
 * The store's health: what {@link RedisServerProbe} finds on the store's connection,
 * within twice the store's timeout, opening the connection included.
 *
 * @param failures what failures mean, and the store's timeout
 * @param connections the connection the probe runs on
 * @param probe the probe
 */
record RedisHealthCheck(CallFailures failures, RedisConnections connections, RedisServerProbe probe) {

	Status checkHealth() {
		RedisServerStatus status = checkServer();
		return new Status(status.isUsable(), status.details());
	}

	/**
	 * Probes the server: its eviction policy, its role, whether it runs the store's scripts.
	 * With {@code INFO} and one script call that writes nothing, never {@code CONFIG}. On a
	 * Cluster every master's policy is read.
	 * @return what the probe found
	 * @throws LockStoreException when no connection opens or the probe does not answer in
	 * time
	 */
	RedisServerStatus checkServer() {
		long deadline = System.nanoTime() + 2 * this.failures.timeoutNanos();
		NativeConnection connection = this.connections.current();
		if (connection == null) {
			connection = awaitConnection(deadline);
		}
		try {
			return BoundedWait.get(this.probe.probe(connection), deadline);
		}
		catch (ExecutionException ex) {
			throw CallFailures.of(ex);
		}
		catch (TimeoutException ex) {
			throw this.failures.timedOut(connection);
		}
	}

	/**
	 * Waits for the connection until the deadline. An open still in progress then goes on
	 * for the callers after this one.
	 */
	private NativeConnection awaitConnection(long deadline) {
		try {
			return BoundedWait.get(this.connections.opening(), deadline);
		}
		catch (ExecutionException ex) {
			throw CallFailures.of(ex);
		}
		catch (TimeoutException ex) {
			throw this.failures.timedOut(null);
		}
	}

}
