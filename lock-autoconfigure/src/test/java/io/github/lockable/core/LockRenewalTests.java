package io.github.lockable.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.HeldLock;
import io.github.lockable.LockContext;
import io.github.lockable.LockLostException;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.core.LockRenewals.Renewal;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.Stages;
import io.github.lockable.test.CallerThreads;
import io.github.lockable.test.ForwardingLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Renewal for long work, against a real Redis: a renewed lock outlives its TTL while the
 * work runs, a lost lock is reported, and a renewal never outlives its release.
 */
@SpringBootTest(classes = LockRenewalTests.RenewalApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = { "lockable.store=redis", "lockable.key-prefix=renew" })
@ExtendWith(OutputCaptureExtension.class)
class LockRenewalTests {

	/**
	 * Renewed every second: a renewal may come two seconds late, as on a busy machine (a
	 * 1.5s TTL once lost its lock at a load average of 13 on two cores), and still find the
	 * lock.
	 */
	private static final Duration SHORT_TTL = Duration.ofSeconds(3);

	/** Longer than {@link #SHORT_TTL}: a lock that stays this long was renewed. */
	private static final Duration BEYOND_SHORT_TTL = SHORT_TTL.multipliedBy(2);

	@Autowired
	private LockStore store;

	@Autowired
	private LockableCore core;

	@Autowired
	private LockTemplate locks;

	@Autowired
	private LongJobs jobs;

	@Autowired
	private ConfigurableApplicationContext context;

	private final RedisCommands<String, String> redis = RedisTestServer.shared().commands();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void renewedLockOutlivesItsTtlUntilClosed() {
		String key = "long:" + UUID.randomUUID();
		HeldLock lock = this.locks.tryLockRenewing(key, SHORT_TTL, Duration.ZERO).orElseThrow();
		await().during(BEYOND_SHORT_TTL)
			.atMost(Duration.ofSeconds(20))
			.until(() -> this.redis.exists("renew:" + key) == 1);
		assertThat(lock.isHeld()).isTrue();
		lock.close();
		assertThat(this.redis.exists("renew:" + key)).isZero();
		await().during(Duration.ofMillis(400))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.redis.exists("renew:" + key) == 0);
	}

	@Test
	void renewalThatFindsTheLockLostTellsTheHolder(CapturedOutput output) {
		String key = "lost:" + UUID.randomUUID();
		HeldLock lock = this.locks.tryLockRenewing(key, SHORT_TTL, Duration.ZERO).orElseThrow();
		this.redis.del("renew:" + key);
		await().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeld());
		// The holder learns it first; the WARN follows on the renewal thread.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> output.getAll().contains("LockTemplate: lock renew:" + key + " on redis was lost after"));
		lock.close();
	}

	@Test
	void lockableMethodIsRenewedWhileItRunsAndReportsALostLock(CapturedOutput output) throws Exception {
		CountDownLatch finish = new CountDownLatch(1);
		AtomicBoolean heldWhileRunning = new AtomicBoolean();
		CompletableFuture<Void> run = CallerThreads.runAsync(() -> this.jobs.rebuild(finish, heldWhileRunning));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.exists("renew:rebuild") == 1);
		await().during(BEYOND_SHORT_TTL)
			.atMost(Duration.ofSeconds(20))
			.until(() -> this.redis.exists("renew:rebuild") == 1);
		// Someone removes the lock behind the holder's back: the next renewal finds it lost.
		this.redis.del("renew:rebuild");
		await().atMost(Duration.ofSeconds(10)).until(() -> output.getAll().contains("lock renew:rebuild on redis was lost"));
		finish.countDown();
		run.get(10, TimeUnit.SECONDS);
		assertThat(heldWhileRunning).as("LockContext.current().isHeld() once lost").isFalse();
		assertThat(output).contains("LongJobs.rebuild(CountDownLatch, AtomicBoolean): lock renew:rebuild on redis was lost");
	}

	@Test
	void renewalsStopWhenTheSchedulerClosesAtShutdown() {
		String key = "renew:shutdown:" + UUID.randomUUID();
		LockHandle handle = ((AcquireResult.Acquired) Stages.join(this.store.acquire(new LockRequest(key, SHORT_TTL)))).handle();
		LockRenewals renewals = new LockRenewals();
		renewals.start(handle, new LockTerms(SHORT_TTL, Duration.ZERO, LockMetrics.NONE), () -> {
		});
		await().during(BEYOND_SHORT_TTL).atMost(Duration.ofSeconds(20)).until(() -> this.redis.exists(key) == 1);
		renewals.close();
		// No renewal after the shutdown: the lock ends with its TTL.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.exists(key) == 0);
	}

	@Test
	void applicationRenewalsAreClosedWithTheContext() {
		assertThat(this.context.getBeanFactory().getBeanDefinition("lockableCore").getDestroyMethodName())
			.isIn("close", "(inferred)");
	}

	@Test
	void transactionOfALockThatWasLostIsRolledBackAndTheCallerTold(CapturedOutput output) {
		String id = "order-" + UUID.randomUUID();
		CountDownLatch finish = new CountDownLatch(1);
		CompletableFuture<Void> run = CallerThreads.runAsync(() -> this.jobs.write(id, finish));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.exists("renew:write") == 1);
		this.redis.del("renew:write");
		await().atMost(Duration.ofSeconds(10)).until(() -> output.getAll().contains("lock renew:write on redis was lost"));
		finish.countDown();
		assertThat(run).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(LockLostException.class);
		assertThat(this.jobs.written(id)).as("rows written under the lost lock").isZero();
	}

	/**
	 * Renewals racing with releases, thousands of times: no renewal brings a released lock
	 * back or extends the next holder's lock, and none reports a lock lost that was still
	 * ours when it was released. The locks live 30ms so that renewals (every 10ms) meet the
	 * release; a renewal that a busy machine delays past those 30ms really finds its lock
	 * expired, so only a lost report for a lock that the release found still ours counts.
	 */
	@Test
	void renewalRacingWithTheReleaseNeverRevivesOrExtendsALock() {
		ExtendsInFlight counted = new ExtendsInFlight(this.store);
		List<String> nextHolders = new ArrayList<>();
		Map<String, AtomicBoolean> releasedWhileOurs = new LinkedHashMap<>();
		for (int i = 0; i < 2000; i++) {
			String key = "renew:race:" + UUID.randomUUID();
			LockLease lease = ((AcquireResult.Acquired) Stages.join(counted.acquire(new LockRequest(key, Duration.ofMillis(30)))))
				.handle()
				.lease();
			LockHandle handle = new LockHandle(counted, lease);
			AtomicBoolean reportedLost = new AtomicBoolean();
			LockTerms terms = new LockTerms(Duration.ofMillis(30), Duration.ZERO, LockMetrics.NONE);
			Renewal renewal = this.core.renewals().start(handle, terms, () -> reportedLost.set(true));
			// Vary where the release falls relative to the renewals (every 10ms).
			LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos((i % 25) * 500L));
			renewal.stop();
			if (Stages.join(handle.release()) == ReleaseResult.RELEASED) {
				releasedWhileOurs.put(key, reportedLost);
			}
			assertThat(this.redis.exists(key)).as("released lock %s", key).isZero();
			if (i % 2 == 0) {
				assertThat(Stages.join(this.store.acquire(new LockRequest(key, Duration.ofMinutes(5)))))
					.isInstanceOf(AcquireResult.Acquired.class);
				nextHolders.add(key);
			}
		}
		// Extends still on their way when the locks were released have arrived by now.
		await().atMost(Duration.ofSeconds(30)).until(() -> counted.inFlight.get() == 0);
		for (String key : nextHolders) {
			assertThat(this.redis.pttl(key)).as("next holder's TTL of %s", key).isGreaterThan(60_000);
		}
		assertThat(releasedWhileOurs).as("locks that were still ours when released").hasSizeGreaterThan(200);
		assertThat(releasedWhileOurs.entrySet()).filteredOn((released) -> released.getValue().get())
			.extracting(Map.Entry::getKey)
			.as("locks reported lost by their renewal although the release found them still ours")
			.isEmpty();
	}

	/**
	 * The application's store, counting the extends that Redis has not answered yet.
	 */
	private static final class ExtendsInFlight extends ForwardingLockStore {

		private final AtomicInteger inFlight = new AtomicInteger();

		ExtendsInFlight(LockStore store) {
			super(store);
		}

		@Override
		public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
			this.inFlight.incrementAndGet();
			CompletableFuture<Boolean> answered = new CompletableFuture<>();
			// Counted down only after the renewal has seen the answer.
			super.extend(lease, ttl).whenComplete((extended, error) -> {
				try {
					if (error != null) {
						answered.completeExceptionally(error);
					}
					else {
						answered.complete(extended);
					}
				}
				finally {
					this.inFlight.decrementAndGet();
				}
			});
			return answered;
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class RenewalApplication {

		@Bean
		LongJobs longJobs(JdbcTemplate jdbc) {
			jdbc.execute("create table if not exists renewed_orders (id varchar(64) primary key)");
			return new LongJobs(jdbc);
		}

	}

	static class LongJobs {

		private final JdbcTemplate jdbc;

		LongJobs(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Lockable(key = "write", ttl = "300ms", renew = true)
		@Transactional
		public void write(String id, CountDownLatch finish) {
			this.jdbc.update("insert into renewed_orders (id) values (?)", id);
			try {
				finish.await(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		public int written(String id) {
			return this.jdbc.queryForObject("select count(*) from renewed_orders where id = ?", Integer.class, id);
		}

		@Lockable(key = "rebuild", ttl = "3s", renew = true)
		public void rebuild(CountDownLatch finish, AtomicBoolean heldAtTheEnd) {
			try {
				finish.await(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			heldAtTheEnd.set(LockContext.current().orElseThrow().isHeld());
		}

	}

}
