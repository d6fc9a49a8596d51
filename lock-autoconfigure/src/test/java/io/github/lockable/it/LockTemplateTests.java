package io.github.lockable.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.HeldLock;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockContext;
import io.github.lockable.LockTemplate;
import io.github.lockable.test.CallerThreads;
import io.github.lockable.test.VirtualThreads;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import static org.awaitility.Awaitility.await;

/**
 * Locks in code through the auto-configured {@link LockTemplate}, against a real Redis.
 */
@SpringBootTest(classes = LockTemplateTests.TemplateApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = { "lockable.store=redis", "lockable.key-prefix=tpl" })
class LockTemplateTests {

	private static final Duration TTL = Duration.ofSeconds(20);

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Autowired
	private LockTemplate locks;

	private final RedisCommands<String, String> redis = RedisTestServer.shared().commands();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void tryLockTakesThePrefixedKeyOnceAndCloseReleasesIt() {
		String key = key("one");
		HeldLock lock = this.locks.tryLock(key, TTL).orElseThrow();
		assertThat(lock.keys()).containsExactly(key);
		assertThat(lock.isHeld()).isTrue();
		assertThat(this.redis.exists("tpl:" + key)).isOne();
		assertThat(this.locks.tryLock(key, TTL)).isEmpty();
		lock.close();
		lock.close();
		assertThat(lock.isHeld()).isFalse();
		assertThat(this.redis.exists("tpl:" + key)).isZero();
		try (HeldLock again = this.locks.tryLock(key, TTL).orElseThrow()) {
			assertThat(again.isHeld()).isTrue();
		}
	}

	@Test
	void invalidKeyIsRefusedBeforeTheStoreIsAsked() {
		assertThatExceptionOfType(InvalidLockKeyException.class)
			.isThrownBy(() -> this.locks.tryLock("project 1", TTL));
		assertThatExceptionOfType(InvalidLockKeyException.class)
			.isThrownBy(() -> this.locks.tryLockAll(List.of(key("fine"), "{braces}"), TTL, Duration.ZERO));
		assertThat(this.redis.keys("tpl:" + key("fine"))).isEmpty();
	}

	@Test
	void waiterGetsTheLockOnceTheHolderClosesIt() throws Exception {
		String key = key("handoff");
		HeldLock holder = this.locks.tryLock(key, TTL).orElseThrow();
		CompletableFuture<Optional<HeldLock>> waiter = CallerThreads
			.supplyAsync(() -> this.locks.tryLock(key, TTL, WAIT));
		await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> !waiter.isDone());
		// Closed from another thread than the one that took it: ownership is the token.
		CallerThreads.runAsync(holder::close).get(10, TimeUnit.SECONDS);
		try (HeldLock next = waiter.get(10, TimeUnit.SECONDS).orElseThrow()) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void waiterGivesUpAfterItsWaitTime() {
		String key = key("busy");
		try (HeldLock holder = this.locks.tryLock(key, TTL).orElseThrow()) {
			long start = System.nanoTime();
			assertThat(this.locks.tryLock(key, TTL, Duration.ofMillis(300))).isEmpty();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
			assertThat(holder.isHeld()).isTrue();
		}
	}

	@Test
	void tryLockAllTakesEveryKeyOrNone() {
		String a = key("a");
		String b = key("b");
		String c = key("c");
		try (HeldLock holderOfB = this.locks.tryLock(b, TTL).orElseThrow()) {
			assertThat(this.locks.tryLockAll(List.of(c, b, a), TTL, Duration.ofMillis(200))).isEmpty();
			assertThat(this.redis.exists("tpl:" + a, "tpl:" + c)).as("keys taken before the held one are released")
				.isZero();
		}
		try (HeldLock all = this.locks.tryLockAll(List.of(c, b, a, b), TTL, Duration.ZERO).orElseThrow()) {
			assertThat(all.keys()).containsExactly(c, b, a);
			assertThat(this.redis.exists("tpl:" + a, "tpl:" + b, "tpl:" + c)).isEqualTo(3);
			assertThatIllegalStateException().isThrownBy(all::fencingToken);
			assertThat(all.fencingToken(a)).isPositive();
			assertThatIllegalArgumentException().isThrownBy(() -> all.fencingToken(key("other")));
		}
		assertThat(this.redis.exists("tpl:" + a, "tpl:" + b, "tpl:" + c)).isZero();
	}

	@Test
	void overlappingKeySetsInOppositeOrdersNeverDeadlock() throws Exception {
		String a = key("x");
		String b = key("y");
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger mostInside = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			List<Future<Integer>> results = new ArrayList<>();
			for (List<String> keys : List.of(List.of(a, b), List.of(b, a))) {
				results.add(threads.submit(() -> {
					int done = 0;
					for (int i = 0; i < 50; i++) {
						try (HeldLock lock = this.locks.tryLockAll(keys, TTL, WAIT).orElseThrow()) {
							mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
							inside.decrementAndGet();
							done++;
						}
					}
					return done;
				}));
			}
			for (Future<Integer> result : results) {
				assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(50);
			}
			assertThat(mostInside).hasValue(1);
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void extendIsOwnerCheckedAndALostLockIsNoLongerHeld() {
		String key = key("extend");
		HeldLock lock = this.locks.tryLock(key, Duration.ofSeconds(2)).orElseThrow();
		assertThat(lock.extend(Duration.ofSeconds(30))).isTrue();
		assertThat(this.redis.pttl("tpl:" + key)).as("more than the TTL it was taken with").isGreaterThan(2000);
		this.redis.del("tpl:" + key);
		assertThat(lock.extend(Duration.ofSeconds(30))).isFalse();
		assertThat(lock.isHeld()).isFalse();
		lock.close();
	}

	@Test
	void fencingTokensIncreaseWithEveryAcquisition() {
		String key = key("fence");
		long previous = 0;
		for (int i = 0; i < 5; i++) {
			try (HeldLock lock = this.locks.tryLock(key, TTL).orElseThrow()) {
				assertThat(lock.fencingToken()).isGreaterThan(previous);
				assertThat(lock.fencingToken(key)).isEqualTo(lock.fencingToken());
				previous = lock.fencingToken();
			}
		}
	}

	@Test
	void executeRunsTheActionUnderTheLockAndAppliesThePolicy() {
		String key = key("execute");
		String result = this.locks.execute(key, TTL, Duration.ZERO, () -> {
			HeldLock current = LockContext.current().orElseThrow();
			assertThat(current.keys()).containsExactly(key);
			assertThat(this.redis.exists("tpl:" + key)).isOne();
			return "done";
		});
		assertThat(result).isEqualTo("done");
		assertThat(LockContext.current()).isEmpty();
		try (HeldLock holder = this.locks.tryLock(key, TTL).orElseThrow()) {
			assertThatExceptionOfType(LockConflictException.class)
				.isThrownBy(() -> this.locks.execute(key, TTL, Duration.ZERO, () -> "never"))
				.satisfies((ex) -> assertThat(ex.getPolicy()).isEqualTo(ConflictPolicy.CONFLICT));
			assertThat(this.locks.execute(key, TTL, Duration.ZERO, ConflictPolicy.SKIP, () -> "never")).isNull();
		}
	}

	@Test
	void virtualThreadsTakeTurnsOnOneKey() throws Exception {
		ExecutorService virtualThreads = VirtualThreads.perTaskExecutorOrSkip();
		String key = key("virtual");
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger mostInside = new AtomicInteger();
		AtomicInteger runs = new AtomicInteger();
		try {
			List<Future<?>> tasks = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				tasks.add(virtualThreads.submit(() -> {
					try (HeldLock lock = this.locks.tryLock(key, TTL, Duration.ofSeconds(30)).orElseThrow()) {
						mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
						runs.incrementAndGet();
						inside.decrementAndGet();
					}
				}));
			}
			for (Future<?> task : tasks) {
				task.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			virtualThreads.shutdownNow();
		}
		assertThat(runs).hasValue(50);
		assertThat(mostInside).hasValue(1);
	}

	private static String key(String name) {
		return "template:" + name + ":" + UUID.randomUUID();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TemplateApplication {

	}

}
