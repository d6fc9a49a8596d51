package io.github.lockable.core;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.HeldLock;
import io.github.lockable.LockContext;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.test.Stages;
import io.github.lockable.test.CallerThreads;
import io.github.lockable.test.app.ApplicationWithoutSecurity;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A TTL shorter than the work, on Redis, both ways of taking a lock: a second holder gets
 * in once the first one's lock expired; the first one's release deletes nothing, so the
 * second's lock survives; the first holder's loss is reported (a WARN without the token,
 * {@code lockable.release} counting {@code lost}, and for a {@link HeldLock} {@code extend}
 * answering {@code false} and {@code isHeld()} turning {@code false}); and the second
 * holder's fencing token is greater than the first's.
 */
@SpringBootTest(classes = LockLostToExpiryTests.Application.class, webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "lockable.store=redis")
@ExtendWith({ OutputCaptureExtension.class, RedisExtension.class })
class LockLostToExpiryTests {

	private static final Duration SHORT_TTL = Duration.ofMillis(300);

	private final RedisTestServer redis = RedisTestServer.shared();

	@Autowired
	private SlowWork work;

	@Autowired
	private LockTemplate locks;

	@Autowired
	private MeterRegistry meters;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void lockableMethodOutlivingItsTtl(CapturedOutput output) throws Exception {
		double lostBefore = lost();
		CountDownLatch firstMayEnd = new CountDownLatch(1);
		CountDownLatch secondMayEnd = new CountDownLatch(1);
		CompletableFuture<Void> first = CallerThreads.runAsync(() -> this.work.run("first", firstMayEnd));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.work.leases().containsKey("first"));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.redis.commands().exists("lock:slow-work") == 0);

		CompletableFuture<Void> second = CallerThreads.runAsync(() -> this.work.runWithinTtl("second", secondMayEnd));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.work.leases().containsKey("second"));
		Lease firstLease = this.work.leases().get("first");
		Lease secondLease = this.work.leases().get("second");
		assertThat(secondLease.fencingToken()).isGreaterThan(firstLease.fencingToken());

		firstMayEnd.countDown();
		first.get(10, TimeUnit.SECONDS);
		assertThat(this.redis.commands().get("lock:slow-work")).as("the second holder's lock survives")
			.isEqualTo(secondLease.token());
		assertThat(output.getOut()).contains("WARN")
			.contains("Lock lock:slow-work expired before release: TTL shorter than the work");
		assertThat(lost()).isEqualTo(lostBefore + 1);

		secondMayEnd.countDown();
		second.get(10, TimeUnit.SECONDS);
		assertThat(this.redis.commands().exists("lock:slow-work")).isZero();
		assertThat(lost()).isEqualTo(lostBefore + 1);
		assertThat(output.toString()).doesNotContain(firstLease.token()).doesNotContain(secondLease.token());
	}

	@Test
	void heldLockOutlivingItsTtl(CapturedOutput output) {
		double lostBefore = lost();
		HeldLock first = this.locks.tryLock("template-slow", SHORT_TTL).orElseThrow();
		long firstToken = first.fencingToken();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.redis.commands().exists("lock:template-slow") == 0);
		HeldLock second = this.locks.tryLock("template-slow", Duration.ofSeconds(10)).orElseThrow();
		assertThat(second.fencingToken()).isGreaterThan(firstToken);
		assertThat(first.fencingToken()).as("memoized: asked while held").isEqualTo(firstToken);

		assertThat(first.extend(Duration.ofSeconds(10))).as("owner-checked: nothing to extend").isFalse();
		assertThat(first.isHeld()).isFalse();
		assertThat(second.isHeld()).isTrue();
		String secondToken = ((DefaultHeldLock) second).handles().get(0).lease().token();
		first.close();
		assertThat(this.redis.commands().get("lock:template-slow")).isEqualTo(secondToken);
		assertThat(output.getOut()).contains("Lock lock:template-slow expired before release");
		assertThat(lost()).isEqualTo(lostBefore + 1);

		assertThat(second.extend(Duration.ofSeconds(10))).isTrue();
		second.close();
		assertThat(this.redis.commands().exists("lock:template-slow")).isZero();
		assertThat(output.toString()).doesNotContain(secondToken);
	}

	private double lost() {
		// One counter per lock name (the method's key, LockTemplate): the total over all of them
		return this.meters.find("lockable.release").tag("result", "lost").counters().stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	record Lease(String token, long fencingToken) {
	}

	/** Works until the test lets it end, and records its lock's token and fencing token. */
	public static class SlowWork {

		private final Map<String, Lease> leases = new ConcurrentHashMap<>();

		/** Read through the proxy, whose own fields are empty. */
		public Map<String, Lease> leases() {
			return this.leases;
		}

		@Lockable(key = "slow-work", ttl = "300ms")
		public void run(String name, CountDownLatch mayEnd) {
			work(name, mayEnd);
		}

		/** The same lock with a TTL that outlives the test's steps, however busy the machine. */
		@Lockable(key = "slow-work", ttl = "30s")
		public void runWithinTtl(String name, CountDownLatch mayEnd) {
			work(name, mayEnd);
		}

		private void work(String name, CountDownLatch mayEnd) {
			DefaultHeldLock lock = (DefaultHeldLock) LockContext.current().orElseThrow();
			this.leases.put(name, new Lease(lock.handles().get(0).lease().token(), lock.fencingToken()));
			try {
				mayEnd.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	@ApplicationWithoutSecurity
	static class Application {

		@Bean
		SlowWork slowWork() {
			return new SlowWork();
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
