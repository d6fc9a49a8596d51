package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.BootLine;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store across a stop and start of its application context, as Spring Framework 7
 * pauses a cached test context and resumes it, and as a checkpoint and restore does: the
 * connection factory closes its connections and its client on stop, so the store must not
 * keep using the connections it had.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class RedisLockStoreLifecycleTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@Test
	void locksWorkRightAfterTheContextIsStoppedAndStartedAgain(RedisTestServer redis) {
		runner(redis).run((context) -> stopStartAndLock(context.getSourceApplicationContext(),
				context.getBean(LockStore.class)));
	}

	@Test
	void waitingWorksRightAfterTheContextIsStoppedAndStartedAgain(RedisTestServer redis) {
		runner(redis).run((context) -> {
			LockStore store = context.getBean(LockStore.class);
			String key = "lifecycle:" + UUID.randomUUID();
			// Opens the pub/sub connection before the stop.
			assertThat(store.awaitRelease(key, Duration.ofMillis(50)).toCompletableFuture().join()).isNull();
			stopStartAndLock(context.getSourceApplicationContext(), store);
			AcquireResult held = Stages.join(store.acquire(new LockRequest(key, TTL)));
			assertThat(held).isInstanceOf(AcquireResult.Acquired.class);
			long start = System.nanoTime();
			var woken = store.awaitRelease(key, Duration.ofSeconds(20)).toCompletableFuture();
			assertThat(Stages.join(((AcquireResult.Acquired) held).handle().release())).isEqualTo(ReleaseResult.RELEASED);
			woken.join();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("woken by the release, not the maximum wait")
				.isLessThan(Duration.ofSeconds(10));
		});
	}

	/**
	 * Lettuce WARNs "Connection is already closed" when a connection is closed twice: by the
	 * store, and again by its client's shutdown while the first close was under way, or by
	 * the disconnect it caused; or a pub/sub connection that opened just after the stop was
	 * closed while the shutdown closed it. About one close in two did that.
	 */
	@Test
	void closingTheStoreClosesEachConnectionOnce(RedisTestServer redis, CapturedOutput output) {
		for (int i = 0; i < 20; i++) {
			runner(redis).run((context) -> {
				LockStore store = context.getBean(LockStore.class);
				String key = "lifecycle:" + UUID.randomUUID();
				// Opens the pub/sub connection too.
				assertThat(store.awaitRelease(key, Duration.ofMillis(10)).toCompletableFuture().join()).isNull();
				assertThat(lockAndUnlock(store, key)).isTrue();
			});
		}
		assertThat(output).doesNotContain("already closed");
	}

	private static ApplicationContextRunner runner(RedisTestServer redis) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(BootLine.REDIS_AUTO_CONFIGURATION, LockableAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"lockable.acquire-timeout=5s");
	}

	private static void stopStartAndLock(ConfigurableApplicationContext context, LockStore store) {
		String key = "lifecycle:" + UUID.randomUUID();
		assertThat(lockAndUnlock(store, key)).as("before the stop").isTrue();
		context.stop();
		context.start();
		assertThat(lockAndUnlock(store, key)).as("the first lock after the start").isTrue();
	}

	private static boolean lockAndUnlock(LockStore store, String key) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, TTL)));
		if (!(result instanceof AcquireResult.Acquired acquired)) {
			if (result instanceof AcquireResult.Failed failed) {
				throw new AssertionError("The store failed: " + failed.cause().getMessage(), failed.cause());
			}
			return false;
		}
		return Stages.join(acquired.handle().release()) == ReleaseResult.RELEASED;
	}

}
