package io.github.lockable.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * Where locks live. A store grants a key to one owner at a time, for a TTL, and deletes it
 * only for the owner that holds it.
 * <p>
 * Every operation returns a stage, and there is one method per operation. A store with an
 * asynchronous client completes the stage when its server answers; a store that is
 * blocking by nature (memory, file) does its work on the caller's thread and returns a
 * stage that is already complete, unless that work may wait and the caller is a thread
 * that must not block (an event loop), as the file store's guard may: then it completes
 * the stage from another thread. Lockable's blocking callers wait for the stage in one
 * place.
 * <p>
 * Implementations must be thread-safe, must never block longer than their configured
 * timeout, and must pass the store contract test suite.
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
	 * @return a stage with acquired, held by someone else, or failed: a store failure
	 * completes it with {@link AcquireResult.Failed}, never exceptionally
	 */
	CompletionStage<AcquireResult> acquire(LockRequest request);

	/**
	 * Deletes the lock if the lease's token still owns it.
	 * @param lease what {@link #acquire(LockRequest)} granted
	 * @return a stage with {@link ReleaseResult#RELEASED} or {@link ReleaseResult#NOT_OWNER},
	 * or failed with a {@link LockStoreException} when the store does not answer
	 */
	CompletionStage<ReleaseResult> release(LockLease lease);

	/**
	 * Sets the lock's remaining TTL to {@code ttl} if the lease's token still owns it.
	 * @param lease what {@link #acquire(LockRequest)} granted
	 * @param ttl the new remaining TTL, at least one millisecond
	 * @return a stage with {@code true} if extended, {@code false} if the lock is gone or
	 * owned by another, or failed with a {@link LockStoreException} when the store does not
	 * answer
	 */
	CompletionStage<Boolean> extend(LockLease lease, Duration ttl);

	/**
	 * Issues the lease's fencing token, owner-checked: only while the lease's token still
	 * owns the lock. A store that issued it in the acquire ({@link LockLease#fencingToken()}
	 * above 0) answers that token while the lock is still the lease's, and may answer it
	 * without asking its server. Callers ask once per lease.
	 * @param lease what {@link #acquire(LockRequest)} granted
	 * @return a stage with the fencing token, at least 1 and strictly greater than every
	 * token issued before for the key; with 0 when the lease no longer owns the lock; or
	 * failed with a {@link LockStoreException} when the store does not answer
	 */
	CompletionStage<Long> fencingToken(LockLease lease);

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

	/**
	 * Lists the locks held now under a key prefix, by any instance, with what the store
	 * knows of their holders; never their tokens. For operators (the actuator endpoint) and
	 * tests, not for deciding who may run: the answer is old once it arrives. A store bounds
	 * the work of one call (a bounded scan), and must not block longer than its timeout.
	 * The default fails the stage with an {@link UnsupportedOperationException}, for
	 * stores that cannot list.
	 * @param prefix the start of every listed key, such as {@code lockable:}
	 * @param limit the most locks to list, at least 1
	 * @return a stage with the locks, sorted by key, and whether there were more; or failed
	 * with a {@link LockStoreException} when the store does not answer
	 */
	default CompletionStage<LockListing> locks(String prefix, int limit) {
		return CompletableFuture.failedFuture(new UnsupportedOperationException(name() + " store cannot list its locks"));
	}

	/**
	 * Deletes the lock on the key whoever holds it, as an operator does with a lock its
	 * crashed holder left, and wakes its waiters as a release does. Its holder, if it still
	 * runs, finds the lock lost when it extends or releases it; the next holder gets a
	 * fencing token greater than every one issued before. The default fails the stage
	 * with an {@link UnsupportedOperationException}, for stores that cannot.
	 * @param key the full lock key
	 * @return a stage with {@code true} when a lock was held and is deleted, {@code false}
	 * when none was held; or failed with a {@link LockStoreException} when the store does
	 * not answer
	 */
	default CompletionStage<Boolean> forceRelease(String key) {
		return CompletableFuture.failedFuture(new UnsupportedOperationException(name() + " store cannot force a release"));
	}

}
