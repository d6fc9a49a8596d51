package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.FaultyProxy;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Network faults between the store and Redis, through a {@link FaultyProxy}: added latency,
 * a connection cut while the reply is on its way, a half-open connection. Each call ends
 * within the store's timeout, with a lock or a failure; no lock is held by nobody for
 * longer than its TTL; and locking works again once the fault is gone, on the same store.
 */
@ExtendWith(RedisExtension.class)
class RedisLockStoreNetworkFaultTests {

	private static final Logger logger = LoggerFactory.getLogger(RedisLockStoreNetworkFaultTests.class);

	private static final Duration TIMEOUT = Duration.ofMillis(500);

	/** Slack on top of the timeout for thread scheduling on a loaded machine. */
	private static final Duration BOUND = TIMEOUT.plusMillis(1500);

	/** Lettuce's own timeout, far above the store's: the test proves the store's bounds. */
	private static final Duration LETTUCE_TIMEOUT = Duration.ofSeconds(3);

	private static final Duration TTL = Duration.ofSeconds(2);

	private RedisTestServer redis;

	private FaultyProxy proxy;

	private LettuceConnectionFactory factory;

	private RedisLockStore store;

	@BeforeEach
	void connectThroughProxy(RedisTestServer redis) {
		this.redis = redis;
		this.proxy = FaultyProxy.start(redis.host(), redis.port());
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(this.proxy.host(), this.proxy.port()),
				LettuceClientConfiguration.builder().commandTimeout(LETTUCE_TIMEOUT).build());
		this.factory.afterPropertiesSet();
		this.factory.start();
		this.store = new RedisLockStore(this.factory, TIMEOUT);
		// The first connection of a cold client may take longer than the timeout.
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertAcquiredAndReleased("warm-up"));
	}

	@AfterEach
	void close() {
		this.store.close();
		this.proxy.close();
		this.factory.destroy();
	}

	@Test
	void latencyBelowTheTimeoutStillLocks() {
		// A round trip of a third of the timeout: the rest is room for a busy machine.
		try (RedisLockStore patient = new RedisLockStore(this.factory, Duration.ofMillis(2500))) {
			await().atMost(Duration.ofSeconds(20))
				.until(() -> Stages.join(patient.acquire(request("slow-network-warm-up"))) instanceof AcquireResult.Acquired warm
						&& Stages.join(warm.handle().release()) == ReleaseResult.RELEASED);
			this.proxy.latency(Duration.ofMillis(400));
			long start = System.nanoTime();
			AcquireResult result = Stages.join(patient.acquire(request("slow-network")));
			Duration elapsed = since(start);
			assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
			assertThat(elapsed).as("a round trip through the delay").isGreaterThanOrEqualTo(Duration.ofMillis(800));
			assertThat(Stages.join(((AcquireResult.Acquired) result).handle().release())).isEqualTo(ReleaseResult.RELEASED);
		}
	}

	@Test
	void latencyAboveTheTimeoutFailsInTimeAndTheLateAcquireLeavesNoLock() {
		String key = key("late");
		String counter = new String(FencingCounters.counterKey(key.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
		long tokensBefore = counterValue(counter);
		// The server knows the fencing script first: else the late EVALSHA meets NOSCRIPT after
		// its caller gave up, nothing sends it again as EVAL, and no lock is taken at all.
		AcquireResult warm = Stages.join(this.store.acquire(new LockRequest(key("late-warm-up"), TTL, true)));
		assertThat(Stages.join(((AcquireResult.Acquired) warm).handle().release())).isEqualTo(ReleaseResult.RELEASED);
		this.proxy.latency(Duration.ofMillis(700));

		long start = System.nanoTime();
		AcquireResult result = Stages.join(this.store.acquire(new LockRequest(key, TTL.multipliedBy(10), true)));
		assertTimedOut(result);
		assertThat(since(start)).isLessThan(BOUND);

		// The acquire reaches Redis after its caller gave up, and takes the lock there (its
		// fencing token is issued); the release queued behind it deletes it at once, long
		// before its TTL.
		await().atMost(Duration.ofSeconds(10)).until(() -> counterValue(counter) > tokensBefore);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.commands().exists(key) == 0);

		this.proxy.heal();
		awaitRecovery("after latency");
	}

	@Test
	void connectionCutWhileTheReplyIsPendingStillGivesTheCallerItsLock() {
		String key = key("cut");
		AcquireResult before = Stages.join(this.store.acquire(new LockRequest(key, TTL, true)));
		long earlierToken = ((AcquireResult.Acquired) before).handle().lease().fencingToken();
		Stages.join(((AcquireResult.Acquired) before).handle().release());
		this.proxy.cutOnNextReply();

		// The acquire runs and its reply is lost with the connection. Lettuce reconnects and
		// sends it again: that second run finds the key holding the caller's own token, and
		// must grant it, not answer "held" for a lock that nobody holds until its TTL.
		long start = System.nanoTime();
		AcquireResult result = Stages.join(this.store.acquire(new LockRequest(key, TTL)));
		assertThat(since(start)).isLessThan(BOUND);
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		LockLease lease = ((AcquireResult.Acquired) result).handle().lease();
		// The plain SET ran twice; the second, refused, took its own lock over with a token.
		assertThat(lease.fencingToken()).isGreaterThan(earlierToken);
		assertThat(this.redis.commands().get(key)).isEqualTo(lease.token());
		assertThat(this.redis.commands().pttl(key)).isBetween(1L, TTL.toMillis());
		assertThat(Stages.join(((AcquireResult.Acquired) result).handle().release())).isEqualTo(ReleaseResult.RELEASED);
		assertThat(this.redis.commands().exists(key)).isZero();
		assertThat(this.proxy.connectionsAccepted()).as("reconnected").isGreaterThan(1);
	}

	@Test
	void connectionCutForGoodIsAFailureInTimeAndResumesWithTheServer() {
		String key = key("cut-for-good");
		this.proxy.halfOpen();
		this.proxy.close();
		long start = System.nanoTime();
		assertThat(Stages.join(this.store.acquire(new LockRequest(key, TTL)))).isInstanceOf(AcquireResult.Failed.class);
		assertThat(since(start)).isLessThan(BOUND);
		assertThat(this.redis.commands().exists(key)).isZero();
	}

	@Test
	void halfOpenConnectionIsDetectedAndReplacedAfterTheFaultIsGone() {
		this.proxy.halfOpen();
		long faultStart = System.nanoTime();
		List<Duration> failures = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			long start = System.nanoTime();
			assertTimedOut(Stages.join(this.store.acquire(request("half-open-" + i))));
			failures.add(since(start));
			start = System.nanoTime();
			assertTimedOut(this.store.acquire(request("half-open-async-" + i)).toCompletableFuture().join());
			failures.add(since(start));
		}
		assertThat(failures).allSatisfy((elapsed) -> assertThat(elapsed).isLessThan(BOUND));

		// New connections work again; the one the store holds stays half open, as a real one
		// does, until the store gives up on it.
		this.proxy.heal();
		long healed = System.nanoTime();
		awaitRecovery("after half-open");
		logger.info("Half-open: locking again {}ms after the fault began, {}ms after it was removed",
				since(faultStart).toMillis(), since(healed).toMillis());
		assertThat(since(faultStart)).isLessThan(RedisConnections.silenceLimit(TIMEOUT).plus(LETTUCE_TIMEOUT).plusSeconds(3));
		// Nothing the store gave up on got through afterwards and took a lock.
		for (int i = 0; i < 3; i++) {
			assertThat(this.redis.commands().exists(key("half-open-" + i), key("half-open-async-" + i))).isZero();
		}
	}

	/** Locks again, each attempt within the bound; logs how long it took. */
	private void awaitRecovery(String what) {
		long start = System.nanoTime();
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
			long attempt = System.nanoTime();
			AcquireResult result = Stages.join(this.store.acquire(request("recovered")));
			assertThat(since(attempt)).isLessThan(BOUND);
			assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
			assertThat(Stages.join(((AcquireResult.Acquired) result).handle().release())).isEqualTo(ReleaseResult.RELEASED);
		});
		logger.info("Locking again {}ms {}", since(start).toMillis(), what);
	}

	private void assertAcquiredAndReleased(String name) {
		AcquireResult result = Stages.join(this.store.acquire(request(name)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(Stages.join(((AcquireResult.Acquired) result).handle().release())).isEqualTo(ReleaseResult.RELEASED);
	}

	private long counterValue(String counter) {
		String value = this.redis.commands().get(counter);
		return (value != null) ? Long.parseLong(value) : 0;
	}

	private static void assertTimedOut(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("TIMEOUT");
	}

	private static LockRequest request(String name) {
		return new LockRequest(key(name), TTL);
	}

	private static String key(String name) {
		return "lock:network-fault:" + name;
	}

	private static Duration since(long start) {
		return Duration.ofNanos(System.nanoTime() - start);
	}

}
