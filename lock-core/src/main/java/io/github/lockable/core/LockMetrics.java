package io.github.lockable.core;

import java.time.Duration;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.ReleaseResult;

/**
 * Hooks called on every acquire (where the lock flow decides what its outcome means, the
 * same outcome its log line and observation report), release and renewal, for metrics.
 * Implementations must be cheap and must not throw: they run on every locked call.
 * <p>
 * Each {@code @Lockable} method records on the metrics {@link #forLock(String) of its lock
 * name}, asked for once, when the method is first called; the locks taken through
 * {@link io.github.lockable.LockTemplate} record on the metrics for lock name
 * {@value #TEMPLATE_LOCK}, asked for once too.
 */
non-sealed interface LockMetrics extends LockableCore.Meters {

	/**
	 * Does nothing.
	 */
	LockMetrics NONE = new LockMetrics() {
	};

	/**
	 * The lock name of the locks taken through {@link io.github.lockable.LockTemplate}:
	 * their keys are the caller's data, so they share one name.
	 */
	String TEMPLATE_LOCK = "LockTemplate";

	/**
	 * The metrics of one lock name: the static key of a {@code @Lockable} method as
	 * declared, or the name of its resolver; never a resolved key. Called once per method,
	 * so this is the place to look up or register meters, not the hooks.
	 * @param lock the lock name
	 * @return the metrics to record that lock's events on; by default this instance
	 */
	default LockMetrics forLock(String lock) {
		return this;
	}

	/**
	 * An acquire ended: once per acquire, however many attempts a wait took.
	 * @param result what the store answered last
	 */
	default void acquireAttempted(AcquireResult result) {
	}

	/**
	 * An acquire that was allowed to wait ({@code waitTime} above zero) ended.
	 * @param result how it ended
	 * @param waited how long it took, waiting included
	 */
	default void waited(AcquireResult result, Duration waited) {
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

	/**
	 * An operator deleted a lock whoever held it (the actuator endpoint's forced release).
	 * Called on the metrics the manager was given, not on those of a lock name: the key an
	 * operator names has none.
	 */
	default void forceReleased() {
	}

}
