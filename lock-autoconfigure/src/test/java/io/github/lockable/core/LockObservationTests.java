package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.Lockable;
import io.github.lockable.core.LockingFlowTests.ControlledStore;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.autoconfigure.LockableMetricsAutoConfiguration;
import io.github.lockable.observation.DefaultLockAcquisitionObservationConvention;
import io.github.lockable.observation.LockAcquisitionObservationConvention;
import io.github.lockable.observation.LockObservationContext;
import io.github.lockable.test.Stages;
import io.github.lockable.store.LockRequest;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.lang.Nullable;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The observations of {@code @Lockable} calls of every return kind: the acquisition ends
 * when the store answered, the execution when the work ended, both under the caller's
 * observation; nothing is observed without a registry.
 */
class LockObservationTests {

	private static final String ACQUISITION = "lockable.lock.acquisition";

	private static final String EXECUTION = "lockable.lock.execution";

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class))
		.withBean(ControlledStore.class)
		.withBean(ObservedJobs.class);

	@Test
	void blockingCallIsObservedAsAcquisitionThenExecutionUnderTheCallersObservation() {
		this.runner.withBean(ObservationRegistry.class, () -> this.registry).run((context) -> {
			ObservedJobs jobs = context.getBean(ObservedJobs.class);
			Observation caller = Observation.start("caller", this.registry);
			try (Observation.Scope scope = caller.openScope()) {
				jobs.blocking(this.registry);
			}
			caller.stop();
			assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo(ACQUISITION, 1)
				.hasObservationWithNameEqualTo(ACQUISITION)
				.that()
				.hasContextualNameEqualTo("lock blocking")
				.hasLowCardinalityKeyValue("lock", "blocking")
				.hasLowCardinalityKeyValue("store", "controlled")
				.hasLowCardinalityKeyValue("outcome", "acquired")
				.hasLowCardinalityKeyValue("exception", "none")
				.hasLowCardinalityKeyValue("code.function", "blocking")
				.hasLowCardinalityKeyValue("code.namespace", ObservedJobs.class.getName())
				.hasParentObservationEqualTo(caller)
				.hasBeenStopped();
			assertThat(this.registry).hasObservationWithNameEqualTo(EXECUTION)
				.that()
				.hasLowCardinalityKeyValue("lock", "blocking")
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasParentObservationEqualTo(caller)
				.hasBeenStopped();
			assertThat(jobs.seen().get()).as("the observation current while the method ran")
				.isNotNull()
				.extracting((observation) -> observation.getContextView().getName())
				.isEqualTo(EXECUTION);
			assertThat(this.registry).as("no key, no token: nothing of high cardinality")
				.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
					.allSatisfy((handled) -> assertThat(handled.getHighCardinalityKeyValues()).isEmpty()));
		});
	}

	@Test
	void heldLockEndsTheAcquisitionAsHeldAndObservesNoExecution() {
		this.runner.withBean(ObservationRegistry.class, () -> this.registry).run((context) -> {
			takeLock(context.getBean(ControlledStore.class), "lock:blocking");
			ObservedJobs jobs = context.getBean(ObservedJobs.class);
			assertThatExceptionOfType(LockConflictException.class).isThrownBy(() -> jobs.blocking(this.registry));
			assertThat(this.registry).hasObservationWithNameEqualTo(ACQUISITION)
				.that()
				.hasLowCardinalityKeyValue("outcome", "held")
				.doesNotHaveError()
				.hasBeenStopped();
			assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo(EXECUTION, 0);
		});
	}

	@Test
	void heldLockWithPolicySkipEndsTheAcquisitionAsSkipped() {
		this.runner.withBean(ObservationRegistry.class, () -> this.registry).run((context) -> {
			takeLock(context.getBean(ControlledStore.class), "lock:skipping");
			assertThat(context.getBean(ObservedJobs.class).skipping()).isNull();
			assertThat(this.registry).hasObservationWithNameEqualTo(ACQUISITION)
				.that()
				.hasLowCardinalityKeyValue("outcome", "skipped")
				.hasBeenStopped();
			assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo(EXECUTION, 0);
		});
	}

	@Test
	void storeFailureEndsTheAcquisitionAsFailedWithTheStoresError() {
		this.runner.withBean(ObservationRegistry.class, () -> this.registry).run((context) -> {
			context.getBean(ControlledStore.class).down = true;
			ObservedJobs jobs = context.getBean(ObservedJobs.class);
			assertThatExceptionOfType(LockStoreUnavailableException.class)
				.isThrownBy(() -> jobs.blocking(this.registry));
			assertThat(this.registry).hasObservationWithNameEqualTo(ACQUISITION)
				.that()
				.hasLowCardinalityKeyValue("outcome", "failed")
				.hasLowCardinalityKeyValue("exception", "LockStoreException")
				.hasError()
				.hasBeenStopped();
		});
	}

	@Test
	void futureAcquisitionEndsWhenTheStoreAnswersAndExecutionWhenTheMethodsStageFails() {
		this.runner.withBean(ObservationRegistry.class, () -> this.registry).run((context) -> {
			ControlledStore store = context.getBean(ControlledStore.class);
			ObservedJobs jobs = context.getBean(ObservedJobs.class);
			CompletableFuture<Void> answer = store.holdAnswers();
			CompletableFuture<String> call = jobs.future().toCompletableFuture();
			assertThat(this.registry).hasObservationWithNameEqualTo(ACQUISITION).that().hasBeenStarted().isNotStopped();

			answer.complete(null);
			// The call continues on the continuation executor once the store answered.
			await().untilAsserted(() -> assertThat(this.registry).hasObservationWithNameEqualTo(EXECUTION));
			assertThat(this.registry).hasObservationWithNameEqualTo(ACQUISITION)
				.that()
				.hasLowCardinalityKeyValue("outcome", "acquired")
				.hasBeenStopped();
			assertThat(this.registry).hasObservationWithNameEqualTo(EXECUTION).that().isNotStopped();

			jobs.work().completeExceptionally(new IllegalStateException("work failed"));
			assertThatExceptionOfType(CompletionException.class).isThrownBy(call::join);
			assertThat(this.registry).hasObservationWithNameEqualTo(EXECUTION)
				.that()
				.hasLowCardinalityKeyValue("outcome", "error")
				.hasLowCardinalityKeyValue("exception", "IllegalStateException")
				.hasBeenStopped();
		});
	}

	@Test
	void monoObservationsHangUnderTheSubscribersObservationAndItsWorkSeesTheExecution() {
		this.runner.withBean(ObservationRegistry.class, () -> this.registry).run((context) -> {
			ObservedJobs jobs = context.getBean(ObservedJobs.class);
			Observation subscriber = Observation.start("subscriber", this.registry);
			StepVerifier.create(jobs.mono().contextWrite(Context.of(ObservationThreadLocalAccessor.KEY, subscriber)))
				.expectNext(EXECUTION)
				.expectComplete()
				.verify(Duration.ofSeconds(10));
			subscriber.stop();
			assertThat(this.registry).hasObservationWithNameEqualTo(ACQUISITION)
				.that()
				.hasLowCardinalityKeyValue("lock", "mono")
				.hasLowCardinalityKeyValue("outcome", "acquired")
				.hasParentObservationEqualTo(subscriber)
				.hasBeenStopped();
			assertThat(this.registry).hasObservationWithNameEqualTo(EXECUTION)
				.that()
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasParentObservationEqualTo(subscriber)
				.hasBeenStopped();
		});
	}

	@Test
	void withoutARegistryNothingIsObservedAndEveryKindRuns() {
		this.runner.run((context) -> {
			assertThat(context).doesNotHaveBean(ObservationRegistry.class);
			ObservedJobs jobs = context.getBean(ObservedJobs.class);
			jobs.blocking(null);
			jobs.work().complete("done");
			assertThat(jobs.future().toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("done");
			StepVerifier.create(jobs.mono()).expectNext("none").expectComplete().verify(Duration.ofSeconds(10));
		});
	}

	@Test
	void registryWithoutHandlersOpensNoObservation() {
		ObservationRegistry noHandlers = ObservationRegistry.create();
		this.runner.withBean(ObservationRegistry.class, () -> noHandlers).run((context) -> {
			ObservedJobs jobs = context.getBean(ObservedJobs.class);
			jobs.blocking(noHandlers);
			assertThat(jobs.seen().get()).isNull();
			StepVerifier.create(jobs.mono()).expectNext("none").expectComplete().verify(Duration.ofSeconds(10));
		});
	}

	@Test
	void usersConventionReplacesTheDefault() {
		this.runner.withBean(ObservationRegistry.class, () -> this.registry)
			.withBean(LockAcquisitionObservationConvention.class, TeamConvention::new)
			.run((context) -> {
				context.getBean(ObservedJobs.class).blocking(this.registry);
				assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo(ACQUISITION, 0)
					.hasObservationWithNameEqualTo("team.lock.acquire")
					.that()
					.hasLowCardinalityKeyValue("team", "payments")
					.hasLowCardinalityKeyValue("lock", "blocking");
				assertThat(this.registry).hasObservationWithNameEqualTo(EXECUTION);
			});
	}

	@Test
	void timersOfTheObservationsSitBesideTheLockMetersWithoutClash() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		this.runner.withConfiguration(AutoConfigurations.of(LockableMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, () -> meters)
			.withBean(ObservationRegistry.class, () -> observations)
			.run((context) -> {
				ObservedJobs jobs = context.getBean(ObservedJobs.class);
				jobs.blocking(observations);
				jobs.blocking(observations);
				assertThat(meters.get(ACQUISITION).tag("lock", "blocking").tag("outcome", "acquired").timer().count())
					.isEqualTo(2);
				assertThat(meters.get(EXECUTION).tag("lock", "blocking").tag("outcome", "success").timer().count())
					.isEqualTo(2);
				assertThat(meters.get("lockable.acquire").tag("lock", "blocking").tag("result", "acquired")
					.counter().count()).isEqualTo(2);
				assertThat(meters.get("lockable.held").tag("lock", "blocking").timer().count()).isEqualTo(2);
			});
	}

	private static void takeLock(ControlledStore store, String key) {
		assertThat(Stages.join(store.memory.acquire(new LockRequest(key, Duration.ofSeconds(30)))))
			.isInstanceOf(io.github.lockable.store.AcquireResult.Acquired.class);
	}

	static class ObservedJobs {

		private final AtomicReference<Observation> seen = new AtomicReference<>();

		private final CompletableFuture<String> work = new CompletableFuture<>();

		/** The observation current while {@link #blocking} ran; read through the proxy. */
		public AtomicReference<Observation> seen() {
			return this.seen;
		}

		/** What the future method's work returns; the test completes it. */
		public CompletableFuture<String> work() {
			return this.work;
		}

		@Lockable(key = "blocking", ttl = "5s")
		public void blocking(@Nullable ObservationRegistry registry) {
			this.seen.set((registry != null) ? registry.getCurrentObservation() : null);
		}

		@Lockable(key = "skipping", ttl = "5s", conflictPolicy = ConflictPolicy.SKIP)
		public String skipping() {
			return "ran";
		}

		@Lockable(key = "future", ttl = "5s")
		public CompletionStage<String> future() {
			return this.work;
		}

		/** Emits the name of the observation its Reactor context carries. */
		@Lockable(key = "mono", ttl = "5s")
		public Mono<String> mono() {
			return Mono.deferContextual((context) -> Mono.just(context
				.<Observation>getOrEmpty(ObservationThreadLocalAccessor.KEY)
				.map((observation) -> observation.getContextView().getName())
				.orElse("none")));
		}

	}

	static class TeamConvention extends DefaultLockAcquisitionObservationConvention {

		@Override
		public String getName() {
			return "team.lock.acquire";
		}

		@Override
		public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
			return super.getLowCardinalityKeyValues(context).and("team", "payments");
		}

	}

}
