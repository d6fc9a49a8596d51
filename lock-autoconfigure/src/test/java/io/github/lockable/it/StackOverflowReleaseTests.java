package io.github.lockable.it;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
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
import io.github.lockable.test.Stages;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.ForwardingLockStore;
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

	private static final String RECURSING_THREAD = "deep";

	/**
	 * On Redis, whether a release rather than the method meets the overflow depends on what
	 * the JIT compiled so far; every lock must be free either way, and a release handed over
	 * is logged.
	 */
	@Test
	@Tag("slow") // a lock per depth on a real server, thousands of them: about a minute
	void overflowingRecursionLeavesNoLockBehindOnRedis(CapturedOutput output) throws Exception {
		RedisTestServer redis = RedisTestServer.shared();
		overflowLeavesNoLockBehind(output, false, "lockable.store=redis", "lockable.acquire-timeout=10s",
				"spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port());
	}

	/**
	 * Where the overflow strikes in a real recursion depends on what the JIT compiled, so
	 * here it is made certain: the method throws {@link StackOverflowError} at depth 60 and
	 * every release on the recursing thread throws one too, as a release needing more stack
	 * than is left would. Every one of those releases must be handed over.
	 */
	@Test
	void overflowingRecursionLeavesNoLockBehindOnAStoreWhoseReleaseIsDeep(CapturedOutput output) throws Exception {
		Recursion.overflowAt = 60;
		try {
			overflowLeavesNoLockBehind(output, true, "lockable.store=memory", "test.deep-release=true");
		}
		finally {
			Recursion.overflowAt = -1;
		}
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
			// Logged by the hand-off thread after the release that freed the key.
			await("the hand-off's log line").atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(output.getOut())
				.containsPattern("recurse\\(int\\): lock overflow-" + run + ":r\\d:depth:\\d+ on \\w+ could not be "
						+ "released on the caller's thread \\(StackOverflowError, the method threw StackOverflowError\\); "
						+ "it was released on thread lockable-release-handoff instead"));
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
		}, RECURSING_THREAD, 256 * 1024);
		deep.start();
		deep.join(Duration.ofSeconds(60).toMillis());
		assertThat(deep.isAlive()).isFalse();
		assertThat(thrown.get()).isInstanceOf(StackOverflowError.class);
		int deepest = Recursion.deepest.get();
		assertThat(deepest).as("depths that held a lock").isGreaterThan(2);
		// TTL 60s: a lock left behind stays far longer than this wait. Only the depths whose
		// method began: an overflow in the few frames between the grant and the method is not
		// covered yet.
		for (int depth = 0; depth <= deepest; depth++) {
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

	/** The memory store, whose releases on the recursing thread find no stack left. */
	static class DeepReleaseStore extends ForwardingLockStore {

		DeepReleaseStore() {
			super(new MemoryLockStore());
		}

		@Override
		public CompletionStage<AcquireResult> acquire(LockRequest request) {
			// A handle of this store's, so that releasing it comes here.
			return CompletableFuture.completedFuture(Stages.join(acquireOwned(request)));
		}

		@Override
		public CompletionStage<ReleaseResult> release(LockLease lease) {
			if (Thread.currentThread().getName().equals(RECURSING_THREAD)) {
				throw new StackOverflowError("no stack left for the release");
			}
			return super.release(lease);
		}

	}

	static class Recursion {

		static final AtomicInteger deepest = new AtomicInteger();

		static volatile int round;

		private Recursion self;

		public void setSelf(Recursion self) {
			this.self = self;
		}

		/** The depth at which the method throws a StackOverflowError of its own; -1: none. */
		static volatile int overflowAt = -1;

		@Lockable(resolver = "depthKey", ttl = "60s")
		public int recurse(int depth) {
			deepest.accumulateAndGet(depth, Math::max);
			if (depth == overflowAt) {
				throw new StackOverflowError("simulated at depth " + depth);
			}
			return this.self.recurse(depth + 1) + 1;
		}

	}

}
