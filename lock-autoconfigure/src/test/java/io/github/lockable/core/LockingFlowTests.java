package io.github.lockable.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.Stages;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.ForwardingLockStore;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The locking flow on a store whose answers the tests control: asynchronous kinds never
 * wait for the store on the caller's thread, an outage is logged once and then summarized,
 * and neither metrics nor logging can stand between a granted lock and its release.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockingFlowTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class))
		.withUserConfiguration(Jobs.class);

	@Test
	void futureMethodReturnsAtOnceAndRunsOnlyOnceTheStoreGrantedTheLock() {
		this.runner.run((context) -> {
			ControlledStore store = context.getBean(ControlledStore.class);
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<Void> answer = store.holdAnswers();
			CompletableFuture<String> call = jobs.future("a").toCompletableFuture();
			assertThat(call).isNotDone();
			assertThat(jobs.runs()).as("method runs before the store answered").hasValue(0);
			answer.complete(null);
			assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("a");
			assertThat(jobs.runs()).hasValue(1);
			assertThat(Stages.join(store.memory.acquire(new LockRequest("lock:future", Duration.ofSeconds(1)))))
				.as("released")
				.isInstanceOf(AcquireResult.Acquired.class);
		});
	}

	@Test
	void monoSubscriptionWaitsForTheStoreWithoutBlocking() {
		this.runner.run((context) -> {
			ControlledStore store = context.getBean(ControlledStore.class);
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<Void> answer = store.holdAnswers();
			StepVerifier.create(jobs.mono("m"))
				.then(() -> assertThat(jobs.runs()).as("method runs before the store answered").hasValue(0))
				.then(() -> answer.complete(null))
				.expectNext("m")
				.verifyComplete();
			assertThat(jobs.runs()).hasValue(1);
		});
	}

	@Test
	void storeOutageLogsItsFirstFailureThenOneLineWhenTheStoreAnswersAgain(CapturedOutput output) {
		this.runner.withPropertyValues("lockable.store-failure=fail").run((context) -> {
			ControlledStore store = context.getBean(ControlledStore.class);
			Jobs jobs = context.getBean(Jobs.class);
			store.down = true;
			for (int i = 0; i < 50; i++) {
				assertThatExceptionOfType(LockStoreUnavailableException.class).isThrownBy(jobs::blocking);
			}
			assertThat(errorLines(output)).hasSize(1);
			assertThat(errorLines(output).get(0)).contains("Jobs.blocking() not run: lock store controlled failed",
					"UNREACHABLE");

			store.down = false;
			jobs.blocking();
			jobs.blocking();
			assertThat(output.getOut().lines().filter((line) -> line.contains("answers again"))).singleElement()
				.asString()
				.contains("Jobs.blocking(): lock store controlled answers again after 50 failed attempts");

			store.down = true;
			assertThatExceptionOfType(LockStoreUnavailableException.class).isThrownBy(jobs::blocking);
			assertThat(errorLines(output)).as("a new outage is logged again").hasSize(2);
			assertThat(jobs.runs()).hasValue(2);
		});
	}

	@Test
	void metricsThatThrowNeverCostALockItsRelease(CapturedOutput output) {
		this.runner.withBean(LockMetrics.class, ThrowingMetrics::new).run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			jobs.blocking();
			jobs.blocking();
			assertThat(jobs.runs()).as("the second call finds the lock released").hasValue(2);
			assertThat(jobs.future("f").toCompletableFuture().join()).isEqualTo("f");
			StepVerifier.create(jobs.mono("m")).expectNext("m").verifyComplete();
			assertThat(output).contains("LockMetrics " + ThrowingMetrics.class.getName() + ".acquireAttempted threw");
		});
	}

	@Test
	void futureMethodThatThrowsOrReturnsNullReleasesAndLogsItsEnd(CapturedOutput output) {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<String> failed = jobs.failingJob().toCompletableFuture();
			assertThatExceptionOfType(CompletionException.class).isThrownBy(failed::join)
				.withCauseInstanceOf(IllegalStateException.class);
			// A future is returned before the method runs; a method that returned null completes it with null.
			assertThat(jobs.nullJob().join()).isNull();
			assertThat(jobs.failingJob()).as("released after the throw").isCompletedExceptionally();
			assertThat(output).contains("Jobs.failingJob(): lock lock:failing-job acquired on controlled, exit error")
				.contains("Jobs.nullJob(): lock lock:null-job acquired on controlled, exit ok");
		});
	}

	private static List<String> errorLines(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains(" ERROR ")).toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class Jobs {

		private final AtomicInteger runs = new AtomicInteger();

		/** Read through the proxy: a CGLIB proxy's own fields are empty. */
		public AtomicInteger runs() {
			return this.runs;
		}

		@Bean
		ControlledStore controlledStore() {
			return new ControlledStore();
		}

		@Lockable(key = "blocking", ttl = "5s")
		public void blocking() {
			this.runs.incrementAndGet();
		}

		@Lockable(key = "future", ttl = "5s")
		public CompletionStage<String> future(String value) {
			this.runs.incrementAndGet();
			return CompletableFuture.completedFuture(value);
		}

		@Lockable(key = "mono", ttl = "5s")
		public Mono<String> mono(String value) {
			this.runs.incrementAndGet();
			return Mono.just(value);
		}

		@Lockable(key = "failing-job", ttl = "5s", conflictPolicy = ConflictPolicy.SKIP)
		public CompletableFuture<String> failingJob() {
			throw new IllegalStateException("failed before returning its future");
		}

		@Lockable(key = "null-job", ttl = "5s", conflictPolicy = ConflictPolicy.SKIP)
		public CompletableFuture<String> nullJob() {
			return null;
		}

	}

	/**
	 * A memory store that can be down, and whose asynchronous answers can be held back. Its
	 * blocking acquire fails the test when an asynchronous kind uses it.
	 */
	static class ControlledStore extends ForwardingLockStore {

		final MemoryLockStore memory;

		volatile boolean down;

		private volatile CompletableFuture<Void> answers = CompletableFuture.completedFuture(null);

		ControlledStore() {
			this(new MemoryLockStore());
		}

		private ControlledStore(MemoryLockStore memory) {
			super(memory);
			this.memory = memory;
		}

		CompletableFuture<Void> holdAnswers() {
			CompletableFuture<Void> held = new CompletableFuture<>();
			this.answers = held;
			return held;
		}

		@Override
		public String name() {
			return "controlled";
		}

		@Override
		public CompletionStage<AcquireResult> acquire(LockRequest request) {
			return this.answers.thenCompose((ignored) -> this.down
					? CompletableFuture.completedFuture(
							new AcquireResult.Failed(new LockStoreException("Connection refused", "UNREACHABLE", null)))
					: super.acquire(request));
		}

	}

	static class ThrowingMetrics implements LockMetrics {

		@Override
		public void acquireAttempted(AcquireResult result) {
			throw new IllegalStateException("metrics backend rejected the sample");
		}

		@Override
		public void released(ReleaseResult result, Duration held) {
			throw new IllegalStateException("metrics backend rejected the sample");
		}

	}

}
