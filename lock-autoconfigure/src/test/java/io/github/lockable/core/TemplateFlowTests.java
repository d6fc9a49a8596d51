package io.github.lockable.core;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.HeldLock;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockContext;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.LockTemplate;
import io.github.lockable.core.LockingFlowTests.ControlledStore;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.autoconfigure.LockableMetricsAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A {@link LockTemplate} caller goes through the advice's flow: it gets the same log lines,
 * meters (lock name {@code LockTemplate}), observations and store-outage throttle as a
 * {@code @Lockable} method.
 */
@ExtendWith(OutputCaptureExtension.class)
class TemplateFlowTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class,
				LockableMetricsAutoConfiguration.class))
		.withBean(ControlledStore.class)
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withBean(ObservationRegistry.class, () -> this.registry);

	@Test
	void aSkippedTemplateCallIsLoggedMeteredAndObservedAsASkippedMethodIs(CapturedOutput output) {
		this.runner.run((context) -> {
			LockTemplate locks = context.getBean(LockTemplate.class);
			try (HeldLock holder = locks.tryLock("nightly", TTL).orElseThrow()) {
				assertThat(locks.execute("nightly", TTL, Duration.ZERO, ConflictPolicy.SKIP, () -> "ran")).isNull();
			}
			assertThat(output.getAll()).contains("LockTemplate skipped: already running (lock lock:nightly on controlled");
			assertThat(context.getBean(MeterRegistry.class)
				.get("lockable.acquire")
				.tag("lock", "LockTemplate")
				.tag("store", "controlled")
				.tag("result", "held")
				.counter()
				.count()).isEqualTo(1);
			assertThat(this.registry).hasAnObservation((observation) -> observation
				.hasNameEqualTo("lockable.lock.acquisition")
				.hasLowCardinalityKeyValue("lock", "LockTemplate")
				.hasLowCardinalityKeyValue("store", "controlled")
				.hasLowCardinalityKeyValue("outcome", "skipped")
				.hasLowCardinalityKeyValue("code.function", "execute"));
		});
	}

	@Test
	void theWorkOfATemplateCallIsObservedWhileItHoldsTheLock() {
		this.runner.run((context) -> {
			LockTemplate locks = context.getBean(LockTemplate.class);
			String current = locks.execute("report", TTL, Duration.ZERO, () -> {
				assertThat(LockContext.current()).isPresent();
				return this.registry.getCurrentObservation().getContextView().getName();
			});
			assertThat(current).isEqualTo("lockable.lock.execution");
			assertThat(this.registry).hasObservationWithNameEqualTo("lockable.lock.execution")
				.that()
				.hasLowCardinalityKeyValue("lock", "LockTemplate")
				.hasLowCardinalityKeyValue("code.function", "execute")
				.hasBeenStopped();
			assertThat(this.registry).hasObservationWithNameEqualTo("lockable.lock.acquisition")
				.that()
				.hasLowCardinalityKeyValue("outcome", "acquired");
			assertThat(context.getBean(MeterRegistry.class).get("lockable.held").tag("lock", "LockTemplate").timer()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void aStoreOutageIsLoggedOnceAndItsEndSaidForTemplateCallersToo(CapturedOutput output) {
		this.runner.run((context) -> {
			LockTemplate locks = context.getBean(LockTemplate.class);
			ControlledStore store = context.getBean(ControlledStore.class);
			store.down = true;
			for (int i = 0; i < 3; i++) {
				assertThatExceptionOfType(LockStoreUnavailableException.class)
					.isThrownBy(() -> locks.execute("sync", TTL, Duration.ZERO, () -> "ran"));
			}
			assertThat(occurrences(output.getAll(),
					"LockTemplate not run: lock store controlled failed to acquire lock:sync (UNREACHABLE"))
				.as("the first failure of the outage is logged, the repeats are summarized later")
				.isOne();
			assertThat(context.getBean(MeterRegistry.class)
				.get("lockable.acquire")
				.tag("lock", "LockTemplate")
				.tag("result", "failed")
				.counter()
				.count()).isEqualTo(3);
			assertThat(this.registry).hasAnObservation((observation) -> observation
				.hasNameEqualTo("lockable.lock.acquisition")
				.hasLowCardinalityKeyValue("outcome", "failed")
				.hasLowCardinalityKeyValue("exception", "LockStoreException"));
			store.down = false;
			assertThat(locks.execute("sync", TTL, Duration.ZERO, () -> "ran")).isEqualTo("ran");
			assertThat(output.getAll()).contains("LockTemplate: lock store controlled answers again after 3 failed attempts");
		});
	}

	@Test
	void anInvalidKeyIsLoggedAsTheAdviceLogsItWithoutItsValue(CapturedOutput output) {
		this.runner.run((context) -> {
			LockTemplate locks = context.getBean(LockTemplate.class);
			assertThatExceptionOfType(InvalidLockKeyException.class)
				.isThrownBy(() -> locks.execute("secret value", TTL, Duration.ZERO, () -> "ran"));
			assertThat(output.getAll()).contains("LockTemplate not run: The lock key given to LockTemplate has a character")
				.doesNotContain("secret value");
		});
	}

	private static int occurrences(String text, String part) {
		Matcher matcher = Pattern.compile(Pattern.quote(part)).matcher(text);
		int count = 0;
		while (matcher.find()) {
			count++;
		}
		return count;
	}

}
