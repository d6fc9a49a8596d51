package io.github.lockable.it;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.HeldLock;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A recursion through a {@code @Lockable} method that overflows the stack: the releases
 * that cannot run on the exhausted stack run on another thread, every lock taken is free
 * again long before its TTL, the log says what happened, and the caller still gets its
 * {@link StackOverflowError}.
 */
@ExtendWith(OutputCaptureExtension.class)
class StackOverflowReleaseTests {

	/**
	 * On Redis, whether a release rather than the method meets the overflow depends on what
	 * the JIT compiled so far; every lock must be free either way, and a release handed over
	 * is logged.
	 */
	@Test
	void overflowingRecursionLeavesNoLockBehindOnRedis(CapturedOutput output) throws Exception {
		RedisTestServer redis = RedisTestServer.shared();
		overflowLeavesNoLockBehind(output, false, "lockable.store=redis", "lockable.acquire-timeout=10s",
				"spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port());
	}

	/**
	 * A store whose release needs more stack than its acquire, as a client's or a log
	 * appender's may: the releases of the deepest calls certainly meet the overflow.
	 */
	@Test
	void overflowingRecursionLeavesNoLockBehindOnAStoreWhoseReleaseIsDeep(CapturedOutput output) throws Exception {
		overflowLeavesNoLockBehind(output, true, "lockable.store=memory", "test.deep-release=true");
	}

	private void overflowLeavesNoLockBehind(CapturedOutput output, boolean handOffCertain, String... properties)
			throws Exception {
		String run = UUID.randomUUID().toString();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RecursionApplication.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.properties("lockable.key-prefix=overflow-" + run)
			.run()) {
			LockTemplate locks = context.getBean(LockTemplate.class);
			// The first connection is not what this test is about.
			locks.tryLock("warm-up", Duration.ofSeconds(5)).orElseThrow().close();
			Recursion recursion = context.getBean(Recursion.class);
			recursion.setSelf(recursion);
			for (int round = 0; round < 2 && !handedOff(output); round++) {
				overflowAndAwaitEveryLockFree(recursion, locks, round);
			}
		}
		if (handOffCertain || handedOff(output)) {
			assertThat(output.getOut())
				.containsPattern("recurse\\(int\\): lock overflow-" + run + ":r\\d:depth:\\d+ on \\w+ could not be "
						+ "released on the caller's thread \\(StackOverflowError, the method threw StackOverflowError\\); "
						+ "it was released on thread lockable-release-handoff instead");
		}
	}

	private static boolean handedOff(CapturedOutput output) {
		return output.getOut().contains("lockable-release-handoff instead");
	}

	private static void overflowAndAwaitEveryLockFree(Recursion recursion, LockTemplate locks, int round)
			throws InterruptedException {
		Recursion.round = round;
		Recursion.deepest.set(-1);
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		// A small stack of its own: the recursion overflows soon, whatever the JVM's default.
		Thread deep = new Thread(null, () -> {
			try {
				recursion.recurse(0);
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
		}, "deep", 256 * 1024);
		deep.start();
		deep.join(Duration.ofSeconds(60).toMillis());
		assertThat(deep.isAlive()).isFalse();
		assertThat(thrown.get()).isInstanceOf(StackOverflowError.class);
		int deepest = Recursion.deepest.get();
		assertThat(deepest).as("depths that held a lock").isGreaterThan(2);
		// TTL 60s: a lock left behind stays far longer than this wait.
		for (int depth = 0; depth <= deepest + 1; depth++) {
			String key = "r" + round + ":depth:" + depth;
			await(key + " of " + deepest + " free again").atMost(Duration.ofSeconds(20)).until(() -> {
				Optional<HeldLock> again = locks.tryLock(key, Duration.ofSeconds(5));
				again.ifPresent(HeldLock::close);
				return again.isPresent();
			});
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class RecursionApplication {

		@Bean
		Recursion recursion() {
			return new Recursion();
		}

		@Bean
		@ConditionalOnProperty("test.deep-release")
		LockStore deepReleaseStore() {
			return new DeepReleaseStore();
		}

		@Bean
		LockKeyResolver depthKey() {
			return (invocation) -> "r" + Recursion.round + ":depth:" + invocation.arguments().get(0);
		}

	}

	/** The memory store, with 200 frames more on the way to every release. */
	static class DeepReleaseStore implements LockStore {

		private final MemoryLockStore memory = new MemoryLockStore();

		@Override
		public String name() {
			return "memory";
		}

		@Override
		public AcquireResult acquire(LockRequest request) {
			return this.memory.acquire(request);
		}

		@Override
		public ReleaseResult release(LockLease lease) {
			return release(lease, 200);
		}

		private ReleaseResult release(LockLease lease, int frames) {
			return (frames == 0) ? this.memory.release(lease) : release(lease, frames - 1);
		}

		@Override
		public boolean extend(LockLease lease, Duration ttl) {
			return this.memory.extend(lease, ttl);
		}

	}

	static class Recursion {

		static final AtomicInteger deepest = new AtomicInteger();

		static volatile int round;

		private Recursion self;

		public void setSelf(Recursion self) {
			this.self = self;
		}

		@Lockable(resolver = "depthKey", ttl = "60s")
		public int recurse(int depth) {
			deepest.accumulateAndGet(depth, Math::max);
			return this.self.recurse(depth + 1) + 1;
		}

	}

}
