package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.autoconfigure.LockableMetricsAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outcome of an acquire is decided once, and that one outcome reaches the log line, the
 * meters and the acquisition observation alike.
 */
@ExtendWith(OutputCaptureExtension.class)
class AcquireOutcomeTests {

	private final TestObservationRegistry observations = TestObservationRegistry.create();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class,
				LockableMetricsAutoConfiguration.class))
		.withPropertyValues("lockable.store=memory")
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withBean(ObservationRegistry.class, () -> this.observations)
		.withBean(Reports.class);

	@Test
	void aSkippedWaitingAcquireIsLoggedMeteredAndObservedAsOneOutcome(CapturedOutput output) {
		this.runner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			try (HeldLock holder = context.getBean(LockTemplate.class)
				.tryLock("report", Duration.ofSeconds(30))
				.orElseThrow()) {
				reports.run();
			}
			reports.run();
			assertThat(reports.runs()).as("skipped while held, run once released").hasValue(1);

			assertThat(output.getOut().lines().filter((line) -> line.contains("skipped: already running")))
				.singleElement()
				.asString()
				.contains("Reports.run() skipped: already running (lock lock:report on memory");

			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lockable.acquire").tag("lock", "report").tag("store", "memory")
				.tag("result", "held").counter().count()).isEqualTo(1);
			assertThat(meters.get("lockable.acquire").tag("lock", "report").tag("result", "acquired")
				.counter().count()).isEqualTo(1);
			var heldWait = meters.get("lockable.acquire.wait").tag("lock", "report").tag("result", "held").timer();
			assertThat(heldWait.count()).as("one timed acquire per call, however many attempts").isEqualTo(1);
			assertThat(heldWait.totalTime(TimeUnit.MILLISECONDS)).as("waited the whole wait time")
				.isGreaterThanOrEqualTo(200);
			assertThat(meters.get("lockable.acquire.wait").tag("lock", "report").tag("result", "acquired")
				.timer().count()).isEqualTo(1);

			TestObservationRegistryAssert.assertThat(this.observations)
				.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
					.filteredOn((handled) -> handled.getName().equals("lockable.lock.acquisition")
							&& handled.getLowCardinalityKeyValue("lock").getValue().equals("report"))
					.extracting((handled) -> handled.getLowCardinalityKeyValue("outcome").getValue())
					.containsExactly("skipped", "acquired"));
		});
	}

	static class Reports {

		private final AtomicInteger runs = new AtomicInteger();

		@Lockable(key = "report", ttl = "5s", waitTime = "200ms", conflictPolicy = ConflictPolicy.SKIP)
		public void run() {
			this.runs.incrementAndGet();
		}

		public AtomicInteger runs() {
			return this.runs;
		}

	}

}
