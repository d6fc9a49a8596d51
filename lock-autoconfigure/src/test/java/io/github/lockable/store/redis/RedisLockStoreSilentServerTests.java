package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SilentRedisServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that accepts connections and never answers, from the very first call: the
 * acquire timeout bounds opening the connection too, for every caller at once, and the
 * asynchronous acquire never blocks its caller.
 */
@ExtendWith(RedisExtension.class)
class RedisLockStoreSilentServerTests {

	/** Also the bound on what must return at once: a busy machine may stall a thread for a second. */
	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	/** Generous: a behaviour bound far below Lettuce's 10s, not a speed goal. */
	private static final Duration BOUND = Duration.ofSeconds(5);

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final int CALLERS = 8;

	private SilentRedisServer silent;

	private LettuceConnectionFactory factory;

	private RedisLockStore store;

	@BeforeEach
	void pointAtSilentServer() {
		this.silent = SilentRedisServer.start();
		this.factory = factory(this.silent.host(), this.silent.port());
		this.store = new RedisLockStore(this.factory, TIMEOUT);
	}

	@AfterEach
	void close() {
		// First, so that Lettuce's pending handshake fails now instead of after 10s.
		this.silent.close();
		this.store.close();
		this.factory.destroy();
	}

	@Test
	void concurrentAcquiresEachTimeOutWithinTheAcquireTimeout() throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
		try {
			CyclicBarrier together = new CyclicBarrier(CALLERS);
			List<Future<TimedResult>> results = new ArrayList<>();
			for (int i = 0; i < CALLERS; i++) {
				LockRequest request = new LockRequest("lock:silent:" + i, TTL);
				results.add(callers.submit(() -> {
					together.await();
					long start = System.nanoTime();
					AcquireResult result = Stages.join(this.store.acquire(request));
					return new TimedResult(result, Duration.ofNanos(System.nanoTime() - start));
				}));
			}
			for (Future<TimedResult> future : results) {
				TimedResult timed = future.get(30, TimeUnit.SECONDS);
				assertTimedOut(timed.result());
				assertThat(timed.elapsed()).isLessThan(BOUND);
			}
		}
		finally {
			callers.shutdownNow();
		}

		// The open goes on after its callers gave up, and a later caller waits for that one.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.silent.connectionsAccepted() > 0);
		long start = System.nanoTime();
		assertTimedOut(Stages.join(this.store.acquire(new LockRequest("lock:silent:later", TTL))));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
		assertThat(this.silent.connectionsAccepted()).isOne();
	}

	@Test
	void asyncAcquireReturnsAtOnceAndTimesOut() throws Exception {
		long start = System.nanoTime();
		CompletableFuture<AcquireResult> stage = this.store.acquire(new LockRequest("lock:silent:async", TTL))
			.toCompletableFuture();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);

		assertTimedOut(stage.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
	}

	@Test
	void startingWithTheApplicationWaitsForTheConnectionNoLongerThanTheTimeout() {
		assertThat(this.silent.connectionsAccepted()).isZero();
		long start = System.nanoTime();
		this.store.start();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("start() waits at most the acquire timeout")
			.isLessThan(BOUND);
		assertThat(this.store.isRunning()).isTrue();
		await().atMost(BOUND).until(() -> this.silent.connectionsAccepted() == 1);
		// A first acquire shares that attempt instead of opening another connection.
		assertTimedOut(Stages.join(this.store.acquire(new LockRequest("lock:silent:started", TTL))));
		assertThat(this.silent.connectionsAccepted()).isOne();
	}

	@Test
	void failedFirstOpenIsForgottenAndTheNextCallConnects(RedisTestServer redis) {
		assumeThat(redis.supportsRestart()).as("the harness owns the server").isTrue();
		redis.stop();
		LettuceConnectionFactory refused = factory(redis.host(), redis.port());
		try (RedisLockStore store = new RedisLockStore(refused, TIMEOUT)) {
			AcquireResult down = Stages.join(store.acquire(new LockRequest("lock:silent:restart", TTL)));
			assertThat(down).isInstanceOf(AcquireResult.Failed.class);
			assertThat(((AcquireResult.Failed) down).cause().getCode()).isEqualTo("UNREACHABLE");

			redis.start();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> Stages.join(store.acquire(new LockRequest("lock:silent:restart", TTL))) instanceof AcquireResult.Acquired up
						&& Stages.join(up.handle().release()) == ReleaseResult.RELEASED);
		}
		finally {
			refused.destroy();
		}
	}

	private static void assertTimedOut(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("TIMEOUT");
	}

	/** Lettuce's own timeouts are far above the acquire timeout: this proves the store's bound. */
	private static LettuceConnectionFactory factory(String host, int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private record TimedResult(AcquireResult result, Duration elapsed) {
	}

}
