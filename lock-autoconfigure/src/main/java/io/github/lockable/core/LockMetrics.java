package io.github.lockable.core;

import java.time.Duration;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.ReleaseResult;

/**
 * Hooks the lock manager calls on every acquire and release, for metrics. Implementations
 * must be cheap and must not throw: they run on every locked call.
 */
public interface LockMetrics {

	/**
	 * Does nothing.
	 */
	LockMetrics NONE = new LockMetrics() {
	};

	/**
	 * An acquire attempt ended.
	 * @param result what the store answered
	 */
	default void acquireAttempted(AcquireResult result) {
	}

	/**
	 * A release ended.
	 * @param result what the release found
	 * @param held how long the lock was held
	 */
	default void released(ReleaseResult result, Duration held) {
	}

	/**
	 * A release failed: the store did not answer. The lock runs out with its TTL.
	 * @param held how long the lock was held
	 */
	default void releaseFailed(Duration held) {
	}

	/**
	 * A holder ran longer than the warning share of its TTL.
	 */
	default void ttlNearlyExhausted() {
	}

	/**
	 * A renewal of a held lock ended.
	 * @param result whether the lock was extended, found lost, or the store did not answer
	 */
	default void renewed(LockRenewals.RenewalResult result) {
	}

}
