package io.github.lockable.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link LockManager} takes one lock and whom it tells: the lock's TTL, how long to
 * wait for a held lock, and the metrics of the lock's name. A {@code @Lockable} method
 * keeps its terms from its first call on; the same terms go to the acquire and to the
 * release of the lock, so that the lock's metrics travel with it.
 * @param ttl the lock's TTL
 * @param waitTime how long to wait for a held lock; zero tries once
 * @param metrics the metrics of the lock's name, from {@link LockManager#metrics(String)};
 * a hook that throws is reported and otherwise ignored
 */
public record LockTerms(Duration ttl, Duration waitTime, LockMetrics metrics) {

	public LockTerms {
		Objects.requireNonNull(ttl, "ttl must not be null");
		Objects.requireNonNull(waitTime, "waitTime must not be null");
		metrics = GuardedLockMetrics.guard(Objects.requireNonNull(metrics, "metrics must not be null"));
	}

	/**
	 * Whether an acquire on these terms tries once only.
	 * @return whether the wait time is not above zero
	 */
	boolean triesOnce() {
		return this.waitTime.isZero() || this.waitTime.isNegative();
	}

}
