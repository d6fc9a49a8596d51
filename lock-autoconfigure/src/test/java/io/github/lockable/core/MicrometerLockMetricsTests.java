package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;

class MicrometerLockMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final MicrometerLockMetrics metrics = new MicrometerLockMetrics(this.registry, "redis");

	@Test
	void countsAcquireResults() {
		this.metrics.acquireAttempted(new AcquireResult.Held(Duration.ofSeconds(1), null));
		this.metrics.acquireAttempted(new AcquireResult.Held(null, null));
		this.metrics.acquireAttempted(new AcquireResult.Failed(new LockStoreException("down")));
		assertThat(count("lockable.acquire", "held")).isEqualTo(2);
		assertThat(count("lockable.acquire", "failed")).isEqualTo(1);
		assertThat(count("lockable.acquire", "acquired")).isZero();
	}

	@Test
	void countsReleasesAndHoldTimes() {
		this.metrics.released(ReleaseResult.RELEASED, Duration.ofMillis(10));
		this.metrics.released(ReleaseResult.NOT_OWNER, Duration.ofMillis(30));
		this.metrics.releaseFailed(Duration.ofMillis(20));
		this.metrics.ttlNearlyExhausted();
		assertThat(count("lockable.release", "released")).isEqualTo(1);
		assertThat(count("lockable.release", "lost")).isEqualTo(1);
		assertThat(count("lockable.release", "failed")).isEqualTo(1);
		assertThat(this.registry.get("lockable.held").tag("store", "redis").timer().count()).isEqualTo(3);
		assertThat(this.registry.get("lockable.ttl.warnings").counter().count()).isEqualTo(1);
	}

	@Test
	void eachLockNameHasItsOwnMetersAndTheTemplateItsFixedName() {
		LockMetrics report = this.metrics.forLock("report");
		report.acquireAttempted(new AcquireResult.Held(null, null));
		report.renewed(LockRenewals.RenewalResult.EXTENDED);
		this.metrics.acquireAttempted(new AcquireResult.Held(null, null));
		this.metrics.acquireAttempted(new AcquireResult.Held(null, null));
		assertThat(this.registry.get("lockable.acquire").tag("lock", "report").tag("result", "held").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.get("lockable.acquire").tag("lock", "LockTemplate").tag("result", "held")
			.counter().count()).isEqualTo(2);
		assertThat(this.registry.get("lockable.renewals").tag("lock", "report").tag("result", "extended")
			.counter().count()).isEqualTo(1);
	}

	@Test
	void timesWaitsByHowTheyEnded() {
		LockMetrics report = this.metrics.forLock("report");
		report.waited(new AcquireResult.Held(null, null), Duration.ofMillis(200));
		report.waited(new AcquireResult.Failed(new LockStoreException("down")), Duration.ofMillis(50));
		assertThat(this.registry.get("lockable.acquire.wait").tag("lock", "report").tag("result", "held").timer()
			.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(200);
		assertThat(this.registry.get("lockable.acquire.wait").tag("lock", "report").tag("result", "failed").timer()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("lockable.acquire.wait").tag("lock", "report").tag("result", "acquired").timer()
			.count()).isZero();
	}

	private double count(String name, String result) {
		return this.registry.get(name).tag("store", "redis").tag("result", result).counter().count();
	}

}
