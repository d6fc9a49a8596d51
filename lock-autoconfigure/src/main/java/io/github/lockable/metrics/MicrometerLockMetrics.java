package io.github.lockable.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.lockable.core.LockMetrics;
import io.github.lockable.core.LockRenewals;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.ReleaseResult;

/**
 * Lock metrics on Micrometer, tagged by store and result only (keys would make the number
 * of series unbounded). Meters are registered once, up front: the per-call path only
 * increments.
 * <ul>
 * <li>{@code lockable.acquire} (counter), {@code result}: {@code acquired}, {@code held},
 * {@code failed};</li>
 * <li>{@code lockable.release} (counter), {@code result}: {@code released}, {@code lost}
 * (the TTL ran out before the release), {@code failed};</li>
 * <li>{@code lockable.held} (timer): how long locks were held, to size TTLs against;</li>
 * <li>{@code lockable.ttl.warnings} (counter): holders that ran past
 * {@code lockable.ttl-warning-ratio} of their TTL;</li>
 * <li>{@code lockable.renewals} (counter), {@code result}: {@code extended}, {@code lost}
 * (a renewal found the lock expired or taken while its holder still ran), {@code failed}
 * (the store did not answer; retried).</li>
 * </ul>
 */
public class MicrometerLockMetrics implements LockMetrics {

	private final Counter acquired;

	private final Counter held;

	private final Counter acquireFailed;

	private final Counter released;

	private final Counter lost;

	private final Counter releaseFailed;

	private final Timer holdTime;

	private final Counter ttlWarnings;

	private final Map<LockRenewals.RenewalResult, Counter> renewals = new EnumMap<>(LockRenewals.RenewalResult.class);

	/**
	 * Registers the meters.
	 * @param registry where the meters go
	 * @param store name of the lock store, for the {@code store} tag
	 */
	public MicrometerLockMetrics(MeterRegistry registry, String store) {
		this.acquired = counter(registry, "lockable.acquire", store, "acquired", "Lock acquire attempts");
		this.held = counter(registry, "lockable.acquire", store, "held", "Lock acquire attempts");
		this.acquireFailed = counter(registry, "lockable.acquire", store, "failed", "Lock acquire attempts");
		this.released = counter(registry, "lockable.release", store, "released", "Lock releases");
		this.lost = counter(registry, "lockable.release", store, "lost", "Lock releases");
		this.releaseFailed = counter(registry, "lockable.release", store, "failed", "Lock releases");
		this.holdTime = Timer.builder("lockable.held")
			.description("How long locks were held")
			.tag("store", store)
			.register(registry);
		this.ttlWarnings = Counter.builder("lockable.ttl.warnings")
			.description("Holders that ran past the warning share of their TTL")
			.tag("store", store)
			.register(registry);
		for (LockRenewals.RenewalResult result : LockRenewals.RenewalResult.values()) {
			this.renewals.put(result, counter(registry, "lockable.renewals", store,
					result.name().toLowerCase(Locale.ROOT), "Renewals of held locks"));
		}
	}

	private static Counter counter(MeterRegistry registry, String name, String store, String result,
			String description) {
		return Counter.builder(name).description(description).tag("store", store).tag("result", result).register(registry);
	}

	@Override
	public void acquireAttempted(AcquireResult result) {
		if (result instanceof AcquireResult.Acquired) {
			this.acquired.increment();
		}
		else if (result instanceof AcquireResult.Held) {
			this.held.increment();
		}
		else {
			this.acquireFailed.increment();
		}
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
