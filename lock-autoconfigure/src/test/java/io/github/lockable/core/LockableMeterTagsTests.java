package io.github.lockable.core;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.lockable.HeldLock;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.autoconfigure.LockableMetricsAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every meter of a {@code @Lockable} method carries its lock name, the static key or the
 * resolver's name, never a resolved key; the meters of a method are asked for once.
 */
class LockableMeterTagsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class,
				LockableMetricsAutoConfiguration.class))
		.withPropertyValues("lockable.store=memory")
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withBean("orderKeys", LockKeyResolver.class,
				() -> (invocation) -> "order:" + invocation.argument("id", String.class))
		.withBean(Orders.class);

	@Test
	void resolverMethodsAreTaggedWithTheResolversNameAndNoMeterCarriesAResolvedKey() {
		this.runner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			orders.pay("a17");
			orders.pay("b42");
			orders.pay("c99");
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lockable.acquire").tag("lock", "orderKeys").tag("store", "memory")
				.tag("result", "acquired").counter().count()).isEqualTo(3);
			assertThat(meters.get("lockable.release").tag("lock", "orderKeys").tag("result", "released")
				.counter().count()).isEqualTo(3);
			assertThat(meters.getMeters()).flatExtracting((meter) -> meter.getId().getTags())
				.extracting(Tag::getValue)
				.noneMatch((value) -> value.contains("a17") || value.contains("b42") || value.contains("c99"));
		});
	}

	@Test
	void staticKeysAreTaggedAsDeclaredAndTheTemplateWithItsFixedName() {
		this.runner.run((context) -> {
			context.getBean(Orders.class).report();
			context.getBean(LockTemplate.class).execute("adhoc-17", Duration.ofSeconds(5), Duration.ZERO, () -> "done");
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lockable.held").tag("lock", "report").timer().count()).isEqualTo(1);
			assertThat(meters.get("lockable.held").tag("lock", LockMetrics.TEMPLATE_LOCK).timer().count())
				.isEqualTo(1);
			assertThat(meters.get("lockable.acquire.wait").tag("lock", "report").timers())
				.as("an acquire without waitTime does not wait")
				.allSatisfy((timer) -> assertThat(timer.count()).isZero());
		});
	}

	@Test
	void anAcquireWithAWaitTimeIsTimedWithItsWait() {
		this.runner.run((context) -> {
			HeldLock holder = context.getBean(LockTemplate.class)
				.tryLock("closing", Duration.ofSeconds(2))
				.orElseThrow();
			context.getBean(Orders.class).closeBooks();
			holder.close();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			var waited = meters.get("lockable.acquire.wait").tag("lock", "closing").tag("result", "acquired").timer();
			assertThat(waited.count()).isEqualTo(1);
			assertThat(waited.totalTime(TimeUnit.MILLISECONDS)).as("waited for the holder's TTL").isGreaterThan(500);
		});
	}

	@Test
	void renewalsAreCountedUnderTheMethodsLockName() {
		this.runner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			CompletableFuture<String> call = orders.export();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> meters.get("lockable.renewals").tag("lock", "export").tag("result", "extended")
					.counter().count() >= 1);
			orders.exportWork().complete("exported");
			assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("exported");
		});
	}

	@Test
	void aMethodsMetricsAreAskedForOnceWhateverTheNumberOfCalls() {
		CountingMetrics metrics = new CountingMetrics();
		this.runner.withBean(LockMetrics.class, () -> metrics).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			for (int i = 0; i < 5; i++) {
				orders.report();
				orders.pay("p" + i);
			}
			assertThat(metrics.asked).containsOnlyKeys("report", "orderKeys");
			assertThat(metrics.asked.values()).allSatisfy((count) -> assertThat(count).hasValue(1));
		});
	}

	@Test
	void metricsWhoseLockLookupThrowsNeverStopACall() {
		this.runner.withBean(LockMetrics.class, () -> new LockMetrics() {
			@Override
			public LockMetrics forLock(String lock) {
				throw new IllegalStateException("meter registry closed");
			}
		}).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			orders.report();
			orders.report();
			assertThat(orders.reports()).as("the second call finds the lock released").hasValue(2);
		});
	}

	static class CountingMetrics implements LockMetrics {

		final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

		@Override
		public LockMetrics forLock(String lock) {
			this.asked.computeIfAbsent(lock, (name) -> new AtomicInteger()).incrementAndGet();
			return this;
		}

	}

	static class Orders {

		private final AtomicInteger reports = new AtomicInteger();

		private final CompletableFuture<String> exportWork = new CompletableFuture<>();

		public AtomicInteger reports() {
			return this.reports;
		}

		public CompletableFuture<String> exportWork() {
			return this.exportWork;
		}

		@Lockable(resolver = "orderKeys", ttl = "5s")
		public void pay(String id) {
		}

		@Lockable(key = "report", ttl = "5s")
		public void report() {
			this.reports.incrementAndGet();
		}

		@Lockable(key = "closing", ttl = "5s", waitTime = "5s")
		public void closeBooks() {
		}

		@Lockable(key = "export", ttl = "3s", renew = true)
		public CompletableFuture<String> export() {
			return this.exportWork;
		}

	}

}
