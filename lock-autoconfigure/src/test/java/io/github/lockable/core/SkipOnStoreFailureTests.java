package io.github.lockable.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A {@code SKIP} method whose store fails returns as a skip does, in every return kind; the
 * other policies still refuse with {@link LockStoreUnavailableException}.
 */
class SkipOnStoreFailureTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class))
		.withUserConfiguration(Jobs.class);

	@BeforeEach
	void resetRuns() {
		Jobs.runs.set(0);
	}

	@Test
	void everyReturnKindSkipsWhenTheStoreAnswersWithAFailure() {
		this.runner.run((context) -> assertSkipsEveryKind(context.getBean(Jobs.class), context.getBean(DownStore.class)));
	}

	@Test
	void everyReturnKindSkipsWhenTheStoreThrowsOrItsStageFails() {
		this.runner.withPropertyValues("test.store-throws=true")
			.run((context) -> assertSkipsEveryKind(context.getBean(Jobs.class), context.getBean(DownStore.class)));
	}

	private static void assertSkipsEveryKind(Jobs jobs, DownStore store) throws Exception {
		jobs.blocking();
		assertThat(jobs.value()).isNull();
		assertThat(jobs.optional()).isEmpty();
		assertThat(jobs.future().get(10, TimeUnit.SECONDS)).isNull();
		assertThat(jobs.stage().toCompletableFuture().get(10, TimeUnit.SECONDS)).isNull();
		StepVerifier.create(jobs.mono()).expectComplete().verify(Duration.ofSeconds(10));
		assertThat(Jobs.runs).hasValue(0);
		assertThat(store.attempts).hasValue(6);
	}

	@Test
	void otherPoliciesStillRefuse() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThatExceptionOfType(LockStoreUnavailableException.class).isThrownBy(jobs::conflict);
			assertThat(jobs.conflictFuture()).failsWithin(Duration.ofSeconds(10))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockStoreUnavailableException.class);
			StepVerifier.create(jobs.conflictMono())
				.expectError(LockStoreUnavailableException.class)
				.verify(Duration.ofSeconds(10));
			assertThat(Jobs.runs).hasValue(0);
		});
	}

	@Test
	void proceedStillRunsSkipMethodsUnlocked() {
		this.runner.withPropertyValues("lockable.store-failure=proceed").run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			jobs.blocking();
			assertThat(jobs.value()).isEqualTo("ran");
			StepVerifier.create(jobs.mono()).expectNext("ran").expectComplete().verify(Duration.ofSeconds(10));
			assertThat(Jobs.runs).hasValue(3);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Jobs {

		/** Static: the test holds the bean's proxy, whose own fields are unused. */
		static final AtomicInteger runs = new AtomicInteger();

		@Bean
		DownStore downStore(Environment environment) {
			return new DownStore(environment.getProperty("test.store-throws", Boolean.class, false));
		}

		@Lockable(key = "blocking", conflictPolicy = ConflictPolicy.SKIP)
		public void blocking() {
			runs.incrementAndGet();
		}

		@Lockable(key = "value", conflictPolicy = ConflictPolicy.SKIP)
		public String value() {
			runs.incrementAndGet();
			return "ran";
		}

		@Lockable(key = "optional", conflictPolicy = ConflictPolicy.SKIP)
		public Optional<String> optional() {
			runs.incrementAndGet();
			return Optional.of("ran");
		}

		@Lockable(key = "future", conflictPolicy = ConflictPolicy.SKIP)
		public CompletableFuture<String> future() {
			runs.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@Lockable(key = "stage", conflictPolicy = ConflictPolicy.SKIP)
		public CompletionStage<String> stage() {
			runs.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@Lockable(key = "mono", conflictPolicy = ConflictPolicy.SKIP)
		public Mono<String> mono() {
			return Mono.fromSupplier(() -> {
				runs.incrementAndGet();
				return "ran";
			});
		}

		@Lockable(key = "conflict", conflictPolicy = ConflictPolicy.CONFLICT)
		public void conflict() {
			runs.incrementAndGet();
		}

		@Lockable(key = "conflict-future", conflictPolicy = ConflictPolicy.LOCKED)
		public CompletableFuture<String> conflictFuture() {
			runs.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@Lockable(key = "conflict-mono", conflictPolicy = ConflictPolicy.TOO_MANY_REQUESTS)
		public Mono<String> conflictMono() {
			return Mono.fromSupplier(() -> {
				runs.incrementAndGet();
				return "ran";
			});
		}

	}

	/**
	 * A store that is down: it answers {@link AcquireResult.Failed}, or, throwing, fails
	 * the way a broken third-party store may (an exception, a failed stage).
	 */
	static class DownStore implements LockStore {

		final AtomicInteger attempts = new AtomicInteger();

		private final boolean throwing;

		DownStore(boolean throwing) {
			this.throwing = throwing;
		}

		@Override
		public String name() {
			return "down";
		}

		@Override
		public java.util.concurrent.CompletionStage<Long> fencingToken(LockLease lease) {
			return java.util.concurrent.CompletableFuture.completedFuture(lease.fencingToken());
		}

		@Override
		public CompletionStage<AcquireResult> acquire(LockRequest request) {
			this.attempts.incrementAndGet();
			LockStoreException failure = new LockStoreException("Connection refused", "UNREACHABLE", null);
			if (this.throwing) {
				return CompletableFuture.failedFuture(failure);
			}
			return CompletableFuture.completedFuture(new AcquireResult.Failed(failure));
		}

		@Override
		public CompletionStage<ReleaseResult> release(LockLease lease) {
			return CompletableFuture.completedFuture(ReleaseResult.NOT_OWNER);
		}

		@Override
		public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
			return CompletableFuture.completedFuture(false);
		}

	}

}
