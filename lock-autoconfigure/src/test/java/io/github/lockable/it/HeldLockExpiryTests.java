package io.github.lockable.it;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.lockable.HeldLock;
import io.github.lockable.LockContext;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link HeldLock#isHeld()} tells the truth about time: false once the TTL passed on this
 * JVM's clock without a successful extension, even when nothing else was called, so that
 * a holder can stop before a second caller's work overlaps its own; and it asks no store:
 * a lock deleted in the store reads held until an extend finds it gone. On a real Redis; the
 * subclass runs the same on the memory store.
 */
@SpringBootTest(classes = HeldLockExpiryTests.ExpiryApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = { "lockable.store=redis", "lockable.key-prefix=expiry" })
class HeldLockExpiryTests {

	/** Short enough to run out in the test, long enough for a loaded machine to check it first. */
	private static final Duration TTL = Duration.ofSeconds(2);

	@Autowired
	private LockTemplate locks;

	@Autowired
	private ExpiringJob job;

	@Autowired
	private LockStore store;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void lockIsNoLongerHeldOnceItsTtlRanOutAndAnotherCallerCanTakeIt() {
		String key = key("ttl");
		HeldLock lock = this.locks.tryLock(key, TTL).orElseThrow();
		assertThat(lock.isHeld()).isTrue();
		await().atMost(Duration.ofSeconds(15)).until(() -> !lock.isHeld());
		HeldLock next = await().atMost(Duration.ofSeconds(15))
			.until(() -> this.locks.tryLock(key, Duration.ofSeconds(30)).orElse(null), (taken) -> taken != null);
		assertThat(lock.isHeld()).isFalse();
		assertThat(lock.extend(TTL)).as("owner-checked extend of a lock another caller holds").isFalse();
		assertThat(next.isHeld()).isTrue();
		lock.close();
		assertThat(next.isHeld()).isTrue();
		next.close();
		assertThat(next.isHeld()).isFalse();
	}

	@Test
	void isHeldAnswersLocallyUntilAnExtendFindsTheLockGone() {
		String key = key("deleted");
		HeldLock lock = this.locks.tryLock(key, Duration.ofSeconds(30)).orElseThrow();
		assertThat(this.store.forceRelease("expiry:" + key).toCompletableFuture().join()).isTrue();
		assertThat(lock.isHeld()).as("no store call: the deletion is not seen yet").isTrue();
		assertThat(lock.extend(Duration.ofSeconds(30))).isFalse();
		assertThat(lock.isHeld()).isFalse();
		lock.close();
	}

	@Test
	void extendKeepsTheLockHeldPastItsFirstTtl() {
		try (HeldLock lock = this.locks.tryLock(key("extend"), TTL).orElseThrow()) {
			assertThat(lock.extend(Duration.ofSeconds(30))).isTrue();
			await().during(TTL.plusSeconds(2)).atMost(Duration.ofSeconds(15)).until(lock::isHeld);
			lock.close();
			assertThat(lock.isHeld()).isFalse();
		}
	}

	@Test
	void renewedLockStaysHeldUntilClosed() {
		HeldLock lock = this.locks.tryLockRenewing(key("renewed"), TTL, Duration.ZERO).orElseThrow();
		await().during(TTL.multipliedBy(3)).atMost(Duration.ofSeconds(20)).until(lock::isHeld);
		lock.close();
		assertThat(lock.isHeld()).isFalse();
	}

	@Test
	void lockableMethodSeesItsLockRunOutThroughLockContext() {
		assertThat(this.job.runPastTtl()).isEqualTo("saw its lock run out");
	}

	private static String key(String name) {
		return "held:" + name + ":" + UUID.randomUUID();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ExpiryApplication {

		@Bean
		ExpiringJob expiringJob() {
			return new ExpiringJob();
		}

	}

	static class ExpiringJob {

		@Lockable(key = "expiring-job", ttl = "2s")
		public String runPastTtl() {
			HeldLock lock = LockContext.current().orElseThrow();
			assertThat(lock.isHeld()).isTrue();
			await().atMost(Duration.ofSeconds(15)).until(() -> !lock.isHeld());
			return "saw its lock run out";
		}

	}

}
