package io.github.lockable.it;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.SetArgs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.github.lockable.LockConflictException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.test.CallerThreads;
import io.github.lockable.test.app.Gate;
import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.app.LockableWebApplication.AsyncJobs;
import io.github.lockable.test.app.LockableWebApplication.OrderDesk;
import io.github.lockable.test.app.LockableWebApplication.Orders;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The lock's promise on the paths beside the plain blocking call: a second caller cannot
 * get in while the guarded work still runs, whether that work is a Mono, a future its
 * caller cancelled, or a write in a transaction its caller has not committed yet. Against
 * a real Redis.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "lockable.store=redis")
@ExtendWith(RedisExtension.class)
class ExclusionOnEveryPathTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Autowired
	private Gate gate;

	@Autowired
	private RecordingLockStore store;

	@Autowired
	private AsyncJobs asyncJobs;

	@Autowired
	private Orders orders;

	@Autowired
	private OrderDesk orderDesk;

	private final RedisTestServer redis = RedisTestServer.shared();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@BeforeEach
	void clean() {
		this.gate.reset();
		this.store.clear();
		this.redis.commands().del("lock:orders-joined");
	}

	@AfterEach
	void resetGate() {
		this.gate.reset();
	}

	@Test
	void monoMethodBodyRunsOnlyOnceItsSubscriptionHoldsTheLock() {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		List<String> threads = new CopyOnWriteArrayList<>();
		Mono<String> mono = this.asyncJobs.eagerMono(project, Mono.just("done"), threads);
		// Assembled but not subscribed: nothing ran, nothing is held.
		assertThat(this.gate.runs()).hasValue(0);
		assertThat(this.store.events()).isEmpty();

		this.redis.commands().set(key, "another-holder", SetArgs.Builder.px(20_000));
		StepVerifier.create(mono).expectError(LockConflictException.class).verify(WAIT);
		assertThat(this.gate.runs()).as("body runs of a caller refused with a conflict").hasValue(0);

		this.redis.commands().del(key);
		StepVerifier.create(mono).expectNext("done").verifyComplete();
		StepVerifier.create(mono).expectNext("done").verifyComplete();
		assertThat(this.gate.runs()).as("one body run per subscription").hasValue(2);
		assertThat(this.store.events()).containsExactly("acquire " + key, "acquire " + key, "release " + key,
				"acquire " + key, "release " + key);
	}

	@Test
	void cancelledMonoHoldsTheLockUntilTheMethodsWorkEnds() {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		Sinks.One<String> work = Sinks.one();
		Disposable first = this.asyncJobs.mono(project, work.asMono()).subscribe();
		await().atMost(WAIT).until(() -> this.gate.runs().get() == 1 && this.redis.commands().exists(key) == 1);

		first.dispose();
		// The work behind the cancelled subscription still runs: nobody else may get in.
		StepVerifier.create(this.asyncJobs.mono(project, Mono.just("second")))
			.expectError(LockConflictException.class)
			.verify(WAIT);
		assertThat(this.redis.commands().exists(key)).isOne();

		work.tryEmitValue("done");
		await().atMost(WAIT).until(() -> this.redis.commands().exists(key) == 0);
		StepVerifier.create(this.asyncJobs.mono(project, Mono.just("third"))).expectNext("third").verifyComplete();
	}

	@Test
	void cancelledFutureHoldsTheLockUntilTheMethodsStageCompletes() throws Exception {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> first = this.asyncJobs.future(project, work);
		await().atMost(WAIT).until(() -> this.gate.runs().get() == 1 && this.redis.commands().exists(key) == 1);

		first.cancel(true);
		assertThat(first).isCancelled();
		assertThat(work).as("the method's own stage").isNotDone();
		CompletableFuture<String> second = this.asyncJobs.future(project, CompletableFuture.completedFuture("second"));
		assertThatExceptionOfType(CompletionException.class).isThrownBy(second::join)
			.withCauseInstanceOf(LockConflictException.class);
		assertThat(this.redis.commands().exists(key)).isOne();

		work.complete("done");
		await().atMost(WAIT).until(() -> this.redis.commands().exists(key) == 0);
		assertThat(this.asyncJobs.future(project, CompletableFuture.completedFuture("third"))
			.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("third");
	}

	@Test
	void userCodeNeverContinuesOnTheRedisClientsThreads() throws Exception {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> future = this.asyncJobs.future(UUID.randomUUID(), work);
		CompletableFuture<String> futureContinuation = future.thenApply((value) -> Thread.currentThread().getName());
		work.complete("done");
		assertThat(futureContinuation.get(WAIT.toSeconds(), TimeUnit.SECONDS)).satisfies(this::notAStoreThread);

		List<String> bodyThreads = new CopyOnWriteArrayList<>();
		String monoContinuation = this.asyncJobs.eagerMono(UUID.randomUUID(), Mono.just("done"), bodyThreads)
			.then(Mono.fromCallable(() -> Thread.currentThread().getName()))
			.block(WAIT);
		assertThat(monoContinuation).satisfies(this::notAStoreThread);
		assertThat(bodyThreads).singleElement().satisfies(this::notAStoreThread);
	}

	@Test
	void userCodeNeverContinuesOnTheTimeoutThreadWhenTheStoreIsSilent() throws Exception {
		// Both calls start at once, so that both time out (after 2s) while the server is paused.
		this.redis.pause(Duration.ofSeconds(6));
		CompletableFuture<String> monoContinuation = this.asyncJobs.mono(UUID.randomUUID(), Mono.just("never"))
			.map((value) -> "ran")
			.onErrorResume(LockStoreUnavailableException.class,
					(ex) -> Mono.fromCallable(() -> Thread.currentThread().getName()))
			.toFuture();
		CompletableFuture<String> futureContinuation = this.asyncJobs
			.future(UUID.randomUUID(), CompletableFuture.completedFuture("never"))
			.handle((value, ex) -> (ex != null) ? Thread.currentThread().getName() : "ran");
		assertThat(monoContinuation.get(WAIT.toSeconds(), TimeUnit.SECONDS)).satisfies(this::notAStoreThread);
		assertThat(futureContinuation.get(WAIT.toSeconds(), TimeUnit.SECONDS)).satisfies(this::notAStoreThread);
		assertThat(this.gate.runs()).hasValue(0);
	}

	@Test
	void lockTakenInsideTheCallersTransactionIsReleasedAfterItCommits() {
		String id = "joined-" + UUID.randomUUID();
		this.orderDesk.placeAndThen(id, this::secondCallerCannotGetIn);
		assertThat(this.orders.exists(id)).isTrue();
		assertReleasedAfter("committed");
		assertThat(this.redis.commands().exists("lock:orders-joined")).isZero();
	}

	@Test
	void lockTakenInsideTheCallersTransactionIsReleasedAfterItRollsBack() {
		String id = "bad-" + UUID.randomUUID();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.orderDesk.placeAndThen(id, this::secondCallerCannotGetIn));
		assertThat(this.orders.exists(id)).isFalse();
		assertReleasedAfter("rolled back");
		assertThat(this.redis.commands().exists("lock:orders-joined")).isZero();
	}

	/**
	 * Runs inside the caller's transaction after the locked method returned: its write is not
	 * committed yet, so the lock must still keep a second caller out.
	 */
	private void secondCallerCannotGetIn() {
		assertThat(this.redis.commands().exists("lock:orders-joined")).isOne();
		CompletableFuture<Void> second = CallerThreads.runAsync(() -> this.orders.placeJoined("second"));
		assertThatExceptionOfType(CompletionException.class).isThrownBy(second::join)
			.withCauseInstanceOf(LockConflictException.class);
	}

	private void assertReleasedAfter(String transactionEnd) {
		List<String> events = this.store.events();
		assertThat(events).first().isEqualTo("acquire lock:orders-joined in transaction");
		assertThat(events.subList(events.indexOf(transactionEnd) + 1, events.size())).as("events after the transaction")
			.singleElement()
			.asString()
			.startsWith("release lock:orders-joined");
	}

	private void notAStoreThread(String threadName) {
		assertThat(threadName).doesNotStartWith("lettuce-").doesNotContain("CompletableFutureDelayScheduler");
	}

}
