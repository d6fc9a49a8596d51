package io.github.lockable.core;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockHolder;

/**
 * How {@link LockManager} takes one lock and whom it tells: the lock's TTL, how long to
 * wait for a held lock, and the events of the lock's name, which feed its meters, log lines
 * and observations. A {@code @Lockable} method keeps its terms from its first call on; the
 * same terms go to the acquire, the renewals and the release of the lock, so that the
 * lock's events travel with it. Not a record: the events are internal.
 */
final class LockTerms {

	private final Duration ttl;

	private final Duration waitTime;

	private final LockEvents events;

	private final @Nullable LockHolder holder;

	/**
	 * Terms for a caller of {@link LockManager} that does not tell lock names apart; see
	 * {@link LockManager#terms} for those of one lock name.
	 * @param ttl the lock's TTL
	 * @param waitTime how long to wait for a held lock; zero tries once
	 * @param metrics the metrics to report the lock's releases and renewals to; a hook that
	 * throws is reported and otherwise ignored
	 */
	public LockTerms(Duration ttl, Duration waitTime, LockMetrics metrics) {
		this(ttl, waitTime, LockEvents.of(Objects.requireNonNull(metrics, "metrics must not be null")), null);
	}

	LockTerms(Duration ttl, Duration waitTime, LockEvents events, @Nullable LockHolder holder) {
		this.ttl = Objects.requireNonNull(ttl, "ttl must not be null");
		this.waitTime = Objects.requireNonNull(waitTime, "waitTime must not be null");
		this.events = events;
		this.holder = holder;
	}

	/**
	 * The lock's TTL.
	 * @return the TTL
	 */
	public Duration ttl() {
		return this.ttl;
	}

	/**
	 * How long to wait for a held lock.
	 * @return the wait time; zero tries once
	 */
	public Duration waitTime() {
		return this.waitTime;
	}

	/**
	 * Who asks for the lock, for the store to keep beside its token.
	 * @return the holder, or {@code null} when unknown
	 */
	@Nullable LockHolder holder() {
		return this.holder;
	}

	LockEvents events() {
		return this.events;
	}

	/**
	 * Whether an acquire on these terms tries once only.
	 * @return whether the wait time is not above zero
	 */
	boolean triesOnce() {
		return this.waitTime.isZero() || this.waitTime.isNegative();
	}

}
