package io.github.lockable.core;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.ReleaseResult;

/**
 * Lock metrics on Micrometer, tagged with {@code lock} (the static key of a
 * {@code @Lockable} method as declared, the name of its resolver, or
 * {@value LockMetrics#TEMPLATE_LOCK} for {@link io.github.lockable.LockTemplate}), with
 * {@code store}, and with {@code result} where one is named below; never with a resolved
 * key, which would make the number of series unbounded. The meters of a lock name are
 * registered once, when {@link #forLock(String)} is asked for them: the per-call path only
 * increments.
 * <ul>
 * <li>{@code lockable.acquire} (counter), {@code result}: {@code acquired}, {@code held},
 * {@code failed};</li>
 * <li>{@code lockable.acquire.wait} (timer), {@code result} as above: how long an acquire
 * with a {@code waitTime} took, waiting included;</li>
 * <li>{@code lockable.release} (counter), {@code result}: {@code released}, {@code lost}
 * (the TTL ran out before the release), {@code failed};</li>
 * <li>{@code lockable.held} (timer): how long locks were held, to size TTLs against;</li>
 * <li>{@code lockable.ttl.warnings} (counter): holders that ran past
 * {@code lockable.ttl-warning-ratio} of their TTL;</li>
 * <li>{@code lockable.renewals} (counter), {@code result}: {@code extended}, {@code lost}
 * (a renewal found the lock expired or taken while its holder still ran), {@code failed}
 * (the store did not answer; retried);</li>
 * <li>{@code lockable.force-release} (counter), tagged with {@code store} only: locks an
 * operator deleted whoever held them.</li>
 * </ul>
 */
final class MicrometerLockMetrics implements LockMetrics {

	private final MeterRegistry registry;

	private final String store;

	private final Counter acquired;

	private final Counter held;

	private final Counter acquireFailed;

	private final Timer waitedAcquired;

	private final Timer waitedHeld;

	private final Timer waitedFailed;

	private final Counter released;

	private final Counter lost;

	private final Counter releaseFailed;

	private final Timer holdTime;

	private final Counter ttlWarnings;

	private final Map<LockRenewals.RenewalResult, Counter> renewals = new EnumMap<>(LockRenewals.RenewalResult.class);

	/**
	 * Registers the meters of the locks taken through
	 * {@link io.github.lockable.LockTemplate}; those of each {@code @Lockable} method's lock
	 * name follow from {@link #forLock(String)}.
	 * @param registry where the meters go
	 * @param store name of the lock store, for the {@code store} tag
	 */
	public MicrometerLockMetrics(MeterRegistry registry, String store) {
		this(registry, store, TEMPLATE_LOCK);
	}

	/**
	 * Registers the meters of one lock name.
	 * @param registry where the meters go
	 * @param store name of the lock store, for the {@code store} tag
	 * @param lock the lock name, for the {@code lock} tag: a static key or a resolver's
	 * name, never a resolved key
	 */
	public MicrometerLockMetrics(MeterRegistry registry, String store, String lock) {
		this.registry = registry;
		this.store = store;
		Tags tags = Tags.of("lock", lock, "store", store);
		this.acquired = counter("lockable.acquire", tags, "acquired", "Lock acquire attempts");
		this.held = counter("lockable.acquire", tags, "held", "Lock acquire attempts");
		this.acquireFailed = counter("lockable.acquire", tags, "failed", "Lock acquire attempts");
		this.waitedAcquired = waitTimer(tags, "acquired");
		this.waitedHeld = waitTimer(tags, "held");
		this.waitedFailed = waitTimer(tags, "failed");
		this.released = counter("lockable.release", tags, "released", "Lock releases");
		this.lost = counter("lockable.release", tags, "lost", "Lock releases");
		this.releaseFailed = counter("lockable.release", tags, "failed", "Lock releases");
		this.holdTime = Timer.builder("lockable.held")
			.description("How long locks were held")
			.tags(tags)
			.register(registry);
		this.ttlWarnings = Counter.builder("lockable.ttl.warnings")
			.description("Holders that ran past the warning share of their TTL")
			.tags(tags)
			.register(registry);
		for (LockRenewals.RenewalResult result : LockRenewals.RenewalResult.values()) {
			this.renewals.put(result, counter("lockable.renewals", tags, result.name().toLowerCase(Locale.ROOT),
					"Renewals of held locks"));
		}
	}

	private Counter counter(String name, Tags tags, String result, String description) {
		return Counter.builder(name).description(description).tags(tags).tag("result", result).register(this.registry);
	}

	private Timer waitTimer(Tags tags, String result) {
		return Timer.builder("lockable.acquire.wait")
			.description("How long acquires with a wait time took, waiting included")
			.tags(tags)
			.tag("result", result)
			.register(this.registry);
	}

	@Override
	public void forceReleased() {
		Counter.builder("lockable.force-release")
			.description("Locks an operator deleted whoever held them")
			.tag("store", this.store)
			.register(this.registry)
			.increment();
	}

	@Override
	public LockMetrics forLock(String lock) {
		return new MicrometerLockMetrics(this.registry, this.store, lock);
	}

	@Override
	public void acquireAttempted(AcquireResult result) {
		byResult(result, this.acquired, this.held, this.acquireFailed).increment();
	}

	@Override
	public void waited(AcquireResult result, Duration waited) {
		byResult(result, this.waitedAcquired, this.waitedHeld, this.waitedFailed).record(waited);
	}

	private static <M> M byResult(AcquireResult result, M acquired, M held, M failed) {
		if (result instanceof AcquireResult.Acquired) {
			return acquired;
		}
		return (result instanceof AcquireResult.Held) ? held : failed;
	}

	@Override
	public void released(ReleaseResult result, Duration held) {
		if (result == ReleaseResult.RELEASED) {
			this.released.increment();
		}
		else if (result == ReleaseResult.NOT_OWNER) {
			this.lost.increment();
		}
		this.holdTime.record(held);
	}

	@Override
	public void releaseFailed(Duration held) {
		this.releaseFailed.increment();
		this.holdTime.record(held);
	}

	@Override
	public void ttlNearlyExhausted() {
		this.ttlWarnings.increment();
	}

	@Override
	public void renewed(LockRenewals.RenewalResult result) {
		this.renewals.get(result).increment();
	}

}
