package io.github.lockable.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

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

	/**
	 * Completes when the lock on the key may have become free — its holder released it — or
	 * at the latest after {@code maxWait}, whichever comes first; never completes
	 * exceptionally. The caller then tries to acquire again.
	 * <p>
	 * The stage may complete early, without a release (a lost connection, a store that
	 * polls), and the lock may be taken again by another caller before this one retries:
	 * callers must retry the acquire and, if it is held, wait again. A lock that expires is
	 * not announced; pass the holder's remaining TTL ({@link AcquireResult.Held}) as
	 * {@code maxWait} so that the wait ends when it runs out. A release that happens between
	 * the caller's failed acquire and this call is not lost: the stage then completes at
	 * once.
	 * <p>
	 * No thread waits: the stage completes on a thread of the store or on a shared timer
	 * thread, so dependent actions must not block; cancelling the returned future ends the
	 * wait. The default completes after {@code maxWait} only, for stores that cannot tell
	 * when a lock is released.
	 * @param key the full lock key, as in {@link LockRequest#key()}
	 * @param maxWait the longest wait; zero or negative completes at once
	 * @return a stage that completes with {@code null}
	 */
	default CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		return ReleaseWaiters.timer(maxWait);
	}

	/**
	 * What this store knows that can take a lock away before its TTL runs out, such as a
	 * server configured to evict keys, for the warning of a release or renewal that found a
	 * lock gone early. Called only then.
	 * @return a short clause naming the cause, or {@code null} when the store knows none
	 */
	default @Nullable String earlyLossCause() {
		return null;
	}

}
