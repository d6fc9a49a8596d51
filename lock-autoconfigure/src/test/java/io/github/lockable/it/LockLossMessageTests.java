package io.github.lockable.it;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.test.app.ProbedRedisApplication;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock found gone is explained truthfully: the TTL is blamed only when it ran out, a lock
 * that disappeared earlier (deleted, evicted) is said to have, naming the eviction policy
 * Redis runs, and a real eviction is said to be one. A real application on a
 * {@code redis-server} of the test's own whose policy evicts keys with a TTL.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockLossMessageTests {

	private static ProcessRedisServer redis;

	private static ConfigurableApplicationContext context;

	private static LockTemplate locks;

	@BeforeAll
	static void start() {
		redis = ProcessRedisServer.startDedicated();
		redis.commands().configSet("maxmemory-policy", "volatile-lru");
		context = ProbedRedisApplication.start(redis);
		locks = context.getBean(LockTemplate.class);
		// The policy is what the store's probe, run when it connected, found.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> context.getBean(io.github.lockable.store.LockStore.class).earlyLossCause() != null);
	}

	@AfterAll
	static void stop() {
		context.close();
		redis.close();
	}

	@Test
	void deletedLockDisappearedBeforeItsTtlAndTheMessageNamesTheEvictionPolicy(CapturedOutput output) {
		HeldLock lock = locks.tryLock("loss:deleted", Duration.ofSeconds(30)).orElseThrow();
		assertThat(redis.commands().del("lock:loss:deleted")).isOne();
		lock.close();
		assertThat(output.getAll()).contains("Lock lock:loss:deleted disappeared before its TTL (held ")
			.contains("TTL 30000ms), before release: deleted or force-released, evicted, flushed")
			.contains("Redis's maxmemory-policy volatile-lru evicts lock keys under memory pressure")
			.doesNotContain("lock:loss:deleted expired before release")
			.doesNotContain("TTL shorter");
	}

	@Test
	void lockThatOutlivedItsTtlStillBlamesTheTtl(CapturedOutput output) {
		HeldLock lock = locks.tryLock("loss:expired", Duration.ofSeconds(1)).orElseThrow();
		await().atMost(Duration.ofSeconds(30)).until(() -> redis.commands().exists("lock:loss:expired") == 0);
		lock.close();
		assertThat(output.getAll())
			.contains("Lock lock:loss:expired expired before release: TTL shorter than the work (held ")
			.doesNotContain("lock:loss:expired disappeared");
	}

	@Test
	void renewedLockDeletedBeforeItsTtlIsReportedAsDisappeared(CapturedOutput output) {
		Optional<HeldLock> renewed = locks.tryLockRenewing("loss:renewed", Duration.ofSeconds(6), Duration.ZERO);
		try (HeldLock lock = renewed.orElseThrow()) {
			assertThat(redis.commands().del("lock:loss:renewed")).isOne();
			// The next renewal, at most a third of the TTL later, finds it gone.
			await().atMost(Duration.ofSeconds(30)).until(() -> !lock.isHeld());
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(output.getAll()).contains("LockTemplate: lock lock:loss:renewed on redis was lost after ")
					.contains("while its holder still runs: it disappeared before its TTL (held ")
					.contains("volatile-lru"));
		}
		assertThat(output.getAll()).doesNotContain("lock:loss:renewed expired");
	}

	@Test
	void evictedLockIsReportedAsEvicted(CapturedOutput output) {
		HeldLock lock = locks.tryLock("loss:evicted", Duration.ofSeconds(60)).orElseThrow();
		try {
			redis.commands().configSet("maxmemory", Long.toString(usedMemory() + 2 * 1024 * 1024));
			String filler = "x".repeat(10_000);
			// Keys with a TTL, written after the lock: the least recently used key with a TTL is the lock.
			for (int i = 0; i < 10_000 && redis.commands().exists("lock:loss:evicted") == 1; i++) {
				redis.commands().psetex("filler:" + i, 600_000, filler);
			}
			assertThat(redis.commands().exists("lock:loss:evicted")).as("the lock was evicted").isZero();
		}
		finally {
			redis.commands().configSet("maxmemory", "0");
		}
		lock.close();
		assertThat(output.getAll()).contains("Lock lock:loss:evicted disappeared before its TTL");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(output.getAll()).contains("A lock of this instance was found gone, and "
					+ "Redis evicted ")
				.contains("(maxmemory-policy volatile-lru)"));
	}

	private static long usedMemory() {
		return redis.commands()
			.info("memory")
			.lines()
			.filter((line) -> line.startsWith("used_memory:"))
			.mapToLong((line) -> Long.parseLong(line.substring(line.indexOf(':') + 1).trim()))
			.findFirst()
			.orElseThrow();
	}

}
