package io.github.lockable.it;

import io.github.lockable.test.Stages;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.github.lockable.HeldLock;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockContext;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.test.CallerThreads;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Lockable(waitTime = ...)} against a real Redis: callers queue up and run one at a
 * time, a caller gives up after its wait, and a {@code Mono} waits without blocking.
 */
@SpringBootTest(classes = WaitTimeTests.WaitingApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = { "lockable.store=redis", "lockable.key-prefix=wait" })
class WaitTimeTests {

	@Autowired
	private WaitingJobs jobs;

	@Autowired
	private Queue queue;

	@Autowired
	private LockTemplate locks;

	private final RedisCommands<String, String> redis = RedisTestServer.shared().commands();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void waitersQueueUpAndEachRunsOneAtATime() throws Exception {
		List<CompletableFuture<Void>> calls = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			calls.add(CallerThreads.runAsync(this.jobs::queued));
		}
		for (int finished = 0; finished < 4; finished++) {
			await().atMost(Duration.ofSeconds(10)).until(() -> this.queue.inside.get() == 1);
			// The others wait for the lock; none of them gets in beside the holder.
			await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> this.queue.inside.get() == 1);
			this.queue.leave.release();
			int done = finished + 1;
			await().atMost(Duration.ofSeconds(10)).until(() -> this.queue.runs.get() == done);
		}
		for (CompletableFuture<Void> call : calls) {
			call.get(10, TimeUnit.SECONDS);
		}
		assertThat(this.queue.mostInside).hasValue(1);
	}

	@Test
	void waiterGivesUpAfterItsWaitTime() {
		this.redis.set("wait:impatient", "another-holder", SetArgs.Builder.px(20_000));
		try {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockConflictException.class).isThrownBy(this.jobs::impatient);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		}
		finally {
			this.redis.del("wait:impatient");
		}
	}

	@Test
	void monoWaitsWithoutBlockingAndSeesItsLockInTheReactorContext() {
		String key = "reactive:" + UUID.randomUUID();
		HeldLock holder = this.locks.tryLock(key, Duration.ofSeconds(20)).orElseThrow();
		long holderToken = holder.fencingToken();
		long start = System.nanoTime();
		Mono<Long> waiting = this.jobs.fencedMono(key);
		StepVerifier.create(waiting)
			// A subscribe that blocked would wait out the 10s waitTime; 5s leaves a busy machine room.
			.then(() -> assertThat(Duration.ofNanos(System.nanoTime() - start)).as("subscribing blocks for nothing")
				.isLessThan(Duration.ofSeconds(5)))
			.expectNoEvent(Duration.ofMillis(200))
			.then(holder::close)
			.assertNext((token) -> assertThat(token).isGreaterThan(holderToken))
			.expectComplete()
			.verify(Duration.ofSeconds(10));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WaitingApplication {

		@Bean
		Queue queue() {
			return new Queue();
		}

		@Bean
		WaitingJobs waitingJobs(Queue queue) {
			return new WaitingJobs(queue);
		}

		@Bean
		LockKeyResolver anyKey() {
			return (invocation) -> invocation.argument("key", String.class);
		}

	}

	/** Who is inside the queued method; a bean of its own, since the jobs bean is a proxy. */
	static class Queue {

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger mostInside = new AtomicInteger();

		final AtomicInteger runs = new AtomicInteger();

		final Semaphore leave = new Semaphore(0);

	}

	static class WaitingJobs {

		private final Queue queue;

		WaitingJobs(Queue queue) {
			this.queue = queue;
		}

		@Lockable(key = "queue", ttl = "20s", waitTime = "20s")
		public void queued() {
			this.queue.mostInside.accumulateAndGet(this.queue.inside.incrementAndGet(), Math::max);
			try {
				this.queue.leave.tryAcquire(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.queue.inside.decrementAndGet();
			this.queue.runs.incrementAndGet();
		}

		@Lockable(key = "impatient", ttl = "20s", waitTime = "300ms")
		public void impatient() {
		}

		@Lockable(resolver = "anyKey", ttl = "20s", waitTime = "10s")
		public Mono<Long> fencedMono(String key) {
			return Mono.deferContextual((context) -> Mono
				.just(context.<HeldLock>get(LockContext.REACTOR_CONTEXT_KEY).fencingToken()));
		}

	}

}
