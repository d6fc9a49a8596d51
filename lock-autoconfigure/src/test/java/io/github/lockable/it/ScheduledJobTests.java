package io.github.lockable.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.Stages;
import io.github.lockable.store.memory.MemoryLockStore;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Lockable} on jobs: scheduled methods and runners. Two application contexts on one
 * store stand for two instances of an application.
 */
@ExtendWith(OutputCaptureExtension.class)
class ScheduledJobTests {

	private final ListAppender<ILoggingEvent> attempts = new ListAppender<>();

	{
		// Scheduler threads append while the test reads.
		this.attempts.list = new CopyOnWriteArrayList<>();
	}

	private final Logger attemptLogger = (Logger) LoggerFactory.getLogger("io.github.lockable.attempt");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, TaskSchedulingAutoConfiguration.class,
				LockableAutoConfiguration.class));

	@BeforeEach
	void captureAttempts() {
		this.attempts.start();
		this.attemptLogger.addAppender(this.attempts);
	}

	@AfterEach
	void stopCapturing() {
		this.attemptLogger.detachAppender(this.attempts);
	}

	@Test
	void overlappingRunOfAnotherInstanceIsSkipped() {
		MemoryLockStore sharedStore = new MemoryLockStore();
		ReportJob.reset();
		this.runner.withBean(LockStore.class, () -> sharedStore)
			.withUserConfiguration(ReportJobConfiguration.class)
			.run((first) -> this.runner.withBean(LockStore.class, () -> sharedStore)
				.withUserConfiguration(ReportJobConfiguration.class)
				.run((second) -> {
					// The first run holds the lock until released; meanwhile both instances keep trying.
					await().atMost(Duration.ofSeconds(10)).until(() -> skips().size() >= 4);
					assertThat(ReportJob.started).hasValue(1);
					ReportJob.firstRunMayFinish.countDown();
					await().atMost(Duration.ofSeconds(10)).until(() -> ReportJob.started.get() >= 3);
					assertThat(ReportJob.maxConcurrent).hasValue(1);
				}));
		ILoggingEvent skip = skips().get(0);
		assertThat(skip.getLevel().toString()).isEqualTo("INFO");
		assertThat(skip.getThrowableProxy()).isNull();
		assertThat(skip.getFormattedMessage())
			.matches("ScheduledJobTests.ReportJob.report\\(\\) skipped: already running "
					+ "\\(lock lock:report on memory, held for \\d+ms, \\d+ms of TTL left\\)");
		Map<String, Object> fields = fields(skip);
		assertThat(fields).containsEntry("lock.key", "lock:report")
			.containsEntry("lock.store", "memory")
			.containsEntry("lock.acquired", false)
			.containsEntry("lock.exit", "skipped")
			.containsEntry("lock.pid", ProcessHandle.current().pid())
			.containsKeys("lock.age_ms", "lock.ttl_left_ms", "lock.method");
		ILoggingEvent finished = this.attempts.list.stream()
			.filter((event) -> "ok".equals(fields(event).get("lock.exit")))
			.findFirst()
			.orElseThrow();
		assertThat(finished.getLevel().toString()).isEqualTo("INFO");
		assertThat(fields(finished)).containsEntry("lock.acquired", true).containsKey("lock.held_ms");
	}

	@Test
	void storeFailureIsAnErrorAndTheJobDoesNotRun() {
		FailingStore store = new FailingStore();
		FailingJob.runs.set(0);
		this.runner.withBean(LockStore.class, () -> store)
			.withUserConfiguration(FailingJobConfiguration.class)
			.run((context) -> {
				await().atMost(Duration.ofSeconds(10)).until(() -> store.attempts.get() >= 2);
				assertThat(FailingJob.runs).hasValue(0);
			});
		ILoggingEvent failure = this.attempts.list.stream()
			.filter((event) -> "not-run".equals(fields(event).get("lock.exit")))
			.findFirst()
			.orElseThrow();
		assertThat(failure.getLevel().toString()).isEqualTo("ERROR");
		assertThat(fields(failure)).containsEntry("lock.error_code", "EACCES");
		assertThat(failure.getFormattedMessage()).contains("not run: lock store broken failed to acquire lock:failing")
			.contains("EACCES: Permission denied: /var/lib/locks");
	}

	@Test
	void lockDirectoryThatCannotBeCreatedIsAnErrorAndTheJobDoesNotRun(@TempDir Path temp) throws IOException {
		Path regularFile = Files.writeString(temp.resolve("not-a-directory"), "x");
		FailingJob.runs.set(0);
		this.runner
			.withPropertyValues("lockable.store=file", "lockable.file.directory=" + regularFile.resolve("locks"))
			.withUserConfiguration(FailingJobConfiguration.class)
			.run((context) -> await().atMost(Duration.ofSeconds(10))
				.until(() -> this.attempts.list.stream()
					.anyMatch((event) -> "not-run".equals(fields(event).get("lock.exit")))));
		assertThat(FailingJob.runs).hasValue(0);
		assertThat(skips()).isEmpty();
		ILoggingEvent failure = this.attempts.list.stream()
			.filter((event) -> "not-run".equals(fields(event).get("lock.exit")))
			.findFirst()
			.orElseThrow();
		assertThat(failure.getLevel().toString()).isEqualTo("ERROR");
		assertThat(fields(failure)).containsEntry("lock.error_code", "ENOTDIR").containsEntry("lock.store", "file");
	}

	@Test
	void storeFailureWithProceedRunsTheJobUnlocked() {
		FailingStore store = new FailingStore();
		FailingJob.runs.set(0);
		this.runner.withBean(LockStore.class, () -> store)
			.withPropertyValues("lockable.store-failure=proceed")
			.withUserConfiguration(FailingJobConfiguration.class)
			.run((context) -> await().atMost(Duration.ofSeconds(10)).until(() -> FailingJob.runs.get() >= 1));
		assertThat(this.attempts.list).anySatisfy((event) -> assertThat(fields(event)).containsEntry("lock.exit", "unlocked"));
	}

	@Test
	void runnersAreLockedToo(CapturedOutput output) {
		MemoryLockStore store = new MemoryLockStore();
		Runners.runs.set(0);
		try (ConfigurableApplicationContext context = startWithRunners(store)) {
			assertThat(Runners.runs).hasValue(2);
		}
		// Another instance holds the startup locks: this one skips its runners and starts anyway.
		assertThat(Stages.join(store.acquire(new LockRequest("lock:migrate", Duration.ofSeconds(30)))))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(Stages.join(store.acquire(new LockRequest("lock:warm-up", Duration.ofSeconds(30)))))
			.isInstanceOf(AcquireResult.Acquired.class);
		try (ConfigurableApplicationContext context = startWithRunners(store)) {
			assertThat(Runners.runs).hasValue(2);
		}
		// SpringApplication resets the logging system, so read the console rather than the appender.
		assertThat(output).contains("ScheduledJobTests.Runners.Migration.run(ApplicationArguments) skipped: already running")
			.contains("ScheduledJobTests.Runners.WarmUp.run(String[]) skipped: already running");
	}

	private static ConfigurableApplicationContext startWithRunners(LockStore store) {
		return new SpringApplicationBuilder(RunnersConfiguration.class).web(WebApplicationType.NONE)
			.initializers((context) -> context.getBeanFactory().registerSingleton("lockStore", store))
			.run();
	}

	private List<ILoggingEvent> skips() {
		return this.attempts.list.stream().filter((event) -> "skipped".equals(fields(event).get("lock.exit"))).toList();
	}

	private static Map<String, Object> fields(ILoggingEvent event) {
		List<KeyValuePair> pairs = event.getKeyValuePairs();
		return (pairs != null) ? pairs.stream().collect(Collectors.toMap((pair) -> pair.key, (pair) -> pair.value))
				: Map.of();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class ReportJobConfiguration {

		@Bean
		ReportJob reportJob() {
			return new ReportJob();
		}

	}

	static class ReportJob {

		static final AtomicInteger started = new AtomicInteger();

		static final AtomicInteger running = new AtomicInteger();

		static final AtomicInteger maxConcurrent = new AtomicInteger();

		static CountDownLatch firstRunMayFinish = new CountDownLatch(1);

		static void reset() {
			started.set(0);
			running.set(0);
			maxConcurrent.set(0);
			firstRunMayFinish = new CountDownLatch(1);
		}

		@Scheduled(fixedDelay = 20)
		@Lockable(key = "report", ttl = "30s", conflictPolicy = ConflictPolicy.SKIP)
		public void report() throws InterruptedException {
			int run = started.incrementAndGet();
			maxConcurrent.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				if (run == 1) {
					firstRunMayFinish.await(20, TimeUnit.SECONDS);
				}
			}
			finally {
				running.decrementAndGet();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class FailingJobConfiguration {

		@Bean
		FailingJob failingJob() {
			return new FailingJob();
		}

	}

	static class FailingJob {

		static final AtomicInteger runs = new AtomicInteger();

		@Scheduled(fixedDelay = 20)
		@Lockable(key = "failing", conflictPolicy = ConflictPolicy.SKIP)
		public void run() {
			runs.incrementAndGet();
		}

	}

	static class FailingStore implements LockStore {

		final AtomicInteger attempts = new AtomicInteger();

		@Override
		public String name() {
			return "broken";
		}

		@Override
		public java.util.concurrent.CompletionStage<Long> fencingToken(LockLease lease) {
			return java.util.concurrent.CompletableFuture.completedFuture(lease.fencingToken());
		}

		@Override
		public java.util.concurrent.CompletionStage<AcquireResult> acquire(LockRequest request) {
			this.attempts.incrementAndGet();
			return java.util.concurrent.CompletableFuture.completedFuture(new AcquireResult.Failed(
					new LockStoreException("Permission denied: /var/lib/locks", "EACCES", null)));
		}

		@Override
		public java.util.concurrent.CompletionStage<ReleaseResult> release(LockLease lease) {
			return java.util.concurrent.CompletableFuture.completedFuture(ReleaseResult.NOT_OWNER);
		}

		@Override
		public java.util.concurrent.CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
			return java.util.concurrent.CompletableFuture.completedFuture(false);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, LockableAutoConfiguration.class })
	static class RunnersConfiguration {

		@Bean
		Runners.Migration migration() {
			return new Runners.Migration();
		}

		@Bean
		Runners.WarmUp warmUp() {
			return new Runners.WarmUp();
		}

	}

	static class Runners {

		static final AtomicInteger runs = new AtomicInteger();

		static class Migration implements ApplicationRunner {

			@Override
			@Lockable(key = "migrate", ttl = "5m", conflictPolicy = ConflictPolicy.SKIP)
			public void run(org.springframework.boot.ApplicationArguments args) {
				runs.incrementAndGet();
			}

		}

		static class WarmUp implements CommandLineRunner {

			@Override
			@Lockable(key = "warm-up", conflictPolicy = ConflictPolicy.SKIP)
			public void run(String... args) {
				runs.incrementAndGet();
			}

		}

	}

}
