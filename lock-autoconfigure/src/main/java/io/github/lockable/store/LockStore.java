package io.github.lockable.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where locks live. A store grants a key to one owner at a time, for a TTL, and deletes it
 * only for the owner that holds it.
 * <p>
 * Implementations must be thread-safe, must never block longer than their configured
 * timeout, and must pass the store contract test suite. Blocking stores can rely on the
 * default asynchronous methods; stores with an asynchronous client override them.
 */
public interface LockStore {

	/**
	 * Short name of the store for logs and metrics, such as {@code redis}.
	 * @return the store's name
	 */
	String name();

	/**
	 * Tries to take the lock once, without waiting.
	 * @param request the key and TTL
	 * @return acquired, held by someone else, or failed; never throws for a store failure
	 */
	AcquireResult acquire(LockRequest request);

	/**
	 * Asynchronous {@link #acquire(LockRequest)}.
	 * @param request the key and TTL
	 * @return a stage that completes with the result; a store failure completes it with
	 * {@link AcquireResult.Failed}, not exceptionally
	 */
	default CompletionStage<AcquireResult> acquireAsync(LockRequest request) {
		return CompletableFuture.completedFuture(acquire(request));
	}

	/**
	 * Deletes the lock if the lease's token still owns it.
	 * @param lease what {@link #acquire(LockRequest)} granted
	 * @return {@link ReleaseResult#RELEASED} or {@link ReleaseResult#NOT_OWNER}
	 * @throws LockStoreException when the store does not answer
	 */
	ReleaseResult release(LockLease lease);

	/**
	 * Asynchronous {@link #release(LockLease)}.
	 * @param lease what {@link #acquire(LockRequest)} granted
	 * @return a stage that completes with the result, or exceptionally with a
	 * {@link LockStoreException}
	 */
	default CompletionStage<ReleaseResult> releaseAsync(LockLease lease) {
		try {
			return CompletableFuture.completedFuture(release(lease));
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Sets the lock's remaining TTL to {@code ttl} if the lease's token still owns it.
	 * @param lease what {@link #acquire(LockRequest)} granted
	 * @param ttl the new remaining TTL, at least one millisecond
	 * @return {@code true} if extended, {@code false} if the lock is gone or owned by
	 * another
	 * @throws LockStoreException when the store does not answer
	 */
	boolean extend(LockLease lease, Duration ttl);

	/**
	 * Asynchronous {@link #extend(LockLease, Duration)}.
	 * @param lease what {@link #acquire(LockRequest)} granted
	 * @param ttl the new remaining TTL, at least one millisecond
	 * @return a stage that completes with whether the lock was extended, or exceptionally
	 * with a {@link LockStoreException}
	 */
	default CompletionStage<Boolean> extendAsync(LockLease lease, Duration ttl) {
		try {
			return CompletableFuture.completedFuture(extend(lease, ttl));
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

}
