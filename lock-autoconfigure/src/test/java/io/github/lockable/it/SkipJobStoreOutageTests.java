package io.github.lockable.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code SKIP} job, the policy of scheduled jobs, while its Redis is down: every run is
 * skipped as if another instance held the lock, nothing is thrown into the scheduler (whose
 * default error handler would log a stack trace per run), and the outage is told by
 * Lockable's throttled ERROR line and the store-failure metric.
 */
@ExtendWith(OutputCaptureExtension.class)
class SkipJobStoreOutageTests {

	private static final ProcessRedisServer redis = ProcessRedisServer.startDedicated();

	@AfterAll
	static void stopServer() {
		redis.close();
	}

	@Test
	void skipJobIsSkippedWithoutThrowingWhileRedisIsDown(CapturedOutput output) {
		int port = redis.port();
		redis.stop();
		OutageJob.runs.set(0);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(OutageJobApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + port,
					"lockable.acquire-timeout=500ms", "lockable.store=redis")
			.run()) {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			List<Throwable> thrown = context.getBean(OutageJobApplication.class).thrown;
			await().atMost(Duration.ofSeconds(30))
				.until(() -> failedAcquires(registry) >= 5 && errorLines(output).size() >= 1);
			assertThat(thrown).as("thrown into the scheduler").isEmpty();
			assertThat(OutageJob.runs).as("runs of the job's body").hasValue(0);
			// The first failure of the outage, then at most one summary per 10s.
			assertThat(errorLines(output)).hasSizeLessThanOrEqualTo(1 + (int) (failedAcquires(registry) / 5))
				.hasSizeLessThan((int) failedAcquires(registry));
			assertThat(errorLines(output).get(0)).contains("OutageJob.run() not run: lock store redis failed",
					"lock:outage-job");
			assertThat(output.getOut()).doesNotContain("LockStoreUnavailableException");
		}
	}

	private static double failedAcquires(MeterRegistry registry) {
		return registry.find("lockable.acquire").tag("result", "failed").counters().stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

	private static List<String> errorLines(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains(" ERROR ") && line.contains("OutageJob")).toList();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableScheduling
	static class OutageJobApplication {

		final List<Throwable> thrown = new CopyOnWriteArrayList<>();

		@Bean
		ThreadPoolTaskScheduler taskScheduler() {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setThreadNamePrefix("outage-job-");
			scheduler.setErrorHandler(this.thrown::add);
			return scheduler;
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		OutageJob outageJob() {
			return new OutageJob();
		}

	}

	static class OutageJob {

		static final AtomicInteger runs = new AtomicInteger();

		@Scheduled(fixedDelay = 100)
		@Lockable(key = "outage-job", ttl = "30s", conflictPolicy = ConflictPolicy.SKIP)
		public void run() {
			runs.incrementAndGet();
		}

	}

}
