package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.HeldLock;
import io.github.lockable.LockContext;
import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.autoconfigure.LockableMetricsAutoConfiguration;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.test.Stages;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.ForwardingLockStore;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sibling of {@link AcquireOutcomeTests} for what follows a granted lock: a release
 * and a renewal each reach the log line, the meters and the call's observation as one
 * outcome.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReleaseOutcomeTests {

	private final TestObservationRegistry observations = TestObservationRegistry.create();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class,
				LockableMetricsAutoConfiguration.class))
		.withBean(GatedStore.class)
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withBean(ObservationRegistry.class, () -> this.observations)
		.withBean(Jobs.class);

	@Test
	void aReleaseThatFindsTheLockTakenIsLoggedMeteredAndObservedAsOneOutcome(CapturedOutput output) {
		this.runner.run((context) -> {
			context.getBean(Jobs.class).outlive(context.getBean(GatedStore.class));

			assertThat(output.getOut().lines().filter((line) -> line.contains("lock:outlive expired before release")))
				.singleElement()
				.asString()
				.contains("Lock lock:outlive expired before release: TTL shorter than the work")
				.contains("another caller may have run at the same time");
			assertThat(output.getOut().lines().filter((line) -> line.contains("lock lock:outlive acquired on")))
				.singleElement()
				.asString()
				.contains("Jobs.outlive(GatedStore): lock lock:outlive acquired on memory, exit ok after");

			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lockable.release").tag("lock", "outlive").tag("store", "memory")
				.tag("result", "lost").counter().count()).isEqualTo(1);
			assertThat(meters.get("lockable.release").tag("lock", "outlive").tag("result", "released")
				.counter().count()).isZero();
			assertThat(meters.get("lockable.held").tag("lock", "outlive").timer().count()).isEqualTo(1);

			assertObservedOnce("outlive");
		});
	}

	@Test
	void aRenewalThatFindsTheLockLostIsLoggedMeteredAndObservedAsOneOutcome(CapturedOutput output) {
		this.runner.run((context) -> {
			GatedStore store = context.getBean(GatedStore.class);
			assertThat(context.getBean(Jobs.class).renewedUntilLost(store)).as("the holder learned it").isFalse();
			// The holder learns it first; the WARN follows on the renewal thread.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> output.getOut().contains("lock lock:renewed on memory was lost after"));

			assertThat(output.getOut().lines().filter((line) -> line.contains("was lost after")))
				.singleElement()
				.asString()
				.contains("Jobs.renewedUntilLost(GatedStore): lock lock:renewed on memory was lost after")
				.contains("another caller may run at the same time");

			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lockable.renewals").tag("lock", "renewed").tag("store", "memory")
				.tag("result", "lost").counter().count()).isEqualTo(1);
			assertThat(meters.get("lockable.renewals").tag("lock", "renewed").tag("result", "extended")
				.counter().count()).isEqualTo(store.extendCalls.get() - 1);

			assertObservedOnce("renewed");
		});
	}

	/** One execution of the lock's call was observed, with the work's own outcome. */
	private void assertObservedOnce(String lock) {
		TestObservationRegistryAssert.assertThat(this.observations)
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
				.filteredOn((handled) -> handled.getName().equals("lockable.lock.execution")
						&& handled.getLowCardinalityKeyValue("lock").getValue().equals(lock))
				.extracting((handled) -> handled.getLowCardinalityKeyValue("outcome").getValue())
				.containsExactly("success"));
	}

	/** The memory store, whose extends can be made to find the lock gone. */
	static class GatedStore extends ForwardingLockStore {

		final AtomicInteger extendCalls = new AtomicInteger();

		volatile boolean lose;

		GatedStore() {
			super(new MemoryLockStore());
		}

		/** Its handles extend through this store. */
		@Override
		public CompletionStage<AcquireResult> acquire(LockRequest request) {
			return super.acquire(request).thenApply((result) -> (result instanceof AcquireResult.Acquired acquired)
					? new AcquireResult.Acquired(new LockHandle(this, acquired.handle().lease())) : result);
		}

		@Override
		public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
			this.extendCalls.incrementAndGet();
			return this.lose ? CompletableFuture.completedFuture(false) : super.extend(lease, ttl);
		}

	}

	static class Jobs {

		/** Runs until another caller took the lock whose TTL ran out under it. */
		@Lockable(key = "outlive", ttl = "100ms", conflictPolicy = ConflictPolicy.SKIP)
		public void outlive(GatedStore store) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> Stages.join(store.acquire(new LockRequest("lock:outlive", Duration.ofSeconds(10))))
					instanceof AcquireResult.Acquired);
		}

		/** Renewed once, then every renewal finds the lock gone; answers whether it is still held. */
		@Lockable(key = "renewed", ttl = "1s", renew = true, conflictPolicy = ConflictPolicy.SKIP)
		public Boolean renewedUntilLost(GatedStore store) {
			HeldLock lock = LockContext.current().orElseThrow();
			await().atMost(Duration.ofSeconds(10)).until(() -> store.extendCalls.get() >= 1);
			store.lose = true;
			await().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeld());
			return lock.isHeld();
		}

	}

}
