package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockStoreContract;
import io.github.lockable.test.Stages;
import io.github.lockable.test.BootLine;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code lockable.redis.lock-delay}: after the server may have forgotten its locks (a
 * restart without persistence, another server process taking over), no lock is granted
 * until the delay has passed, so that a holder that still runs is not joined by a second
 * one. On a server of the test's own, which the tests restart.
 */
class RedisLockDelayTests {

	/** Long enough that the store reconnects well within it on a loaded machine. */
	private static final Duration DELAY = Duration.ofSeconds(8);

	private static final Duration TTL = Duration.ofSeconds(30);

	/** A restarted server and Lettuce's reconnect, on a loaded machine. */
	private static final Duration AWAIT = Duration.ofSeconds(30);

	private static final ProcessRedisServer redis = ProcessRedisServer.startDedicated();

	private static LettuceConnectionFactory connectionFactory;

	private static RedisLockStore delayed;

	private static RedisLockStore undelayed;

	@BeforeAll
	static void startStores() {
		connectionFactory = redis.connectionFactory(Duration.ofSeconds(10));
		delayed = new RedisLockStore(connectionFactory, Duration.ofSeconds(5), 0, DELAY);
		undelayed = new RedisLockStore(connectionFactory, Duration.ofSeconds(5));
	}

	@AfterAll
	static void stopStores() {
		delayed.close();
		undelayed.close();
		connectionFactory.destroy();
		redis.close();
	}

	@AfterEach
	void serverRuns() {
		redis.recover();
	}

	@Test
	@Tag("slow") // a server restarted and waited out
	void aRestartedServerGrantsNoLockUntilTheDelayHasPassedSinceItStarted() {
		String key = "lock:delay:" + UUID.randomUUID();
		LockHandle holder = grantedOnceAvailable(delayed, key);
		long beforeStart = System.nanoTime();
		redis.stop();
		redis.start();
		// The holder still runs, but the server forgot its lock: without the delay a second caller gets in.
		String other = "lock:delay:" + UUID.randomUUID();
		assertThat(answered(undelayed, other)).isInstanceOf(AcquireResult.Acquired.class);
		AcquireResult refused = answered(delayed, key);
		assertThat(refused).isInstanceOf(AcquireResult.Held.class);
		// The server's uptime is a difference of whole seconds: the delay gets one more.
		assertThat(((AcquireResult.Held) refused).remainingTtl()).isPositive()
			.isLessThanOrEqualTo(DELAY.plusSeconds(1));
		LockHandle next = grantedOnceAvailable(delayed, key);
		assertThat(Duration.ofNanos(System.nanoTime() - beforeStart)).as("granted after the delay")
			.isGreaterThanOrEqualTo(DELAY);
		assertThat(next.lease().fencingToken()).isGreaterThan(holder.lease().fencingToken());
		Stages.join(next.release());
	}

	@Test
	@Tag("slow") // a second server process started and waited out
	void anotherServerProcessBehindTheSlotDelaysItsLocksFromNow() {
		String key = "lock:delay:" + UUID.randomUUID();
		Stages.join(grantedOnceAvailable(delayed, key).release());
		// What a replica promoted by a failover holds: the marker its old primary wrote.
		redis.commands().set(marker(key), "0123456789abcdef0123456789abcdef01234567 0");
		long before = System.nanoTime();
		AcquireResult refused = answered(delayed, key);
		assertThat(refused).isInstanceOf(AcquireResult.Held.class);
		assertThat(((AcquireResult.Held) refused).remainingTtl()).isPositive().isLessThanOrEqualTo(DELAY);
		LockHandle next = grantedOnceAvailable(delayed, key);
		assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(DELAY.minusMillis(1));
		Stages.join(next.release());
	}

	@Test
	void aSlotFirstUsedLongAfterTheServerStartedIsGrantedAtOnce() {
		await().atMost(AWAIT).until(() -> uptimeSeconds() > DELAY.toSeconds() + 1);
		String key = "lock:delay:" + UUID.randomUUID();
		redis.commands().del(marker(key));
		AcquireResult result = answered(delayed, key);
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		// Not asked for up front: issued later, owner-checked.
		assertThat(Stages.join(delayed.fencingToken(((AcquireResult.Acquired) result).handle().lease()))).isPositive();
		Stages.join(((AcquireResult.Acquired) result).handle().release());
	}

	@Test
	void thePropertyGivesTheStoreItsDelay() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(BootLine.REDIS_AUTO_CONFIGURATION, LockableAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"lockable.redis.lock-delay=45s")
			.run((context) -> assertThat(context.getBean(RedisLockStore.class).lockDelayMillis()).isEqualTo(45_000));
	}

	private static LockHandle grantedOnceAvailable(LockStore store, String key) {
		AcquireResult result = await().atMost(DELAY.plus(AWAIT))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> Stages.join(store.acquire(new LockRequest(key, TTL, true))),
					AcquireResult.Acquired.class::isInstance);
		return ((AcquireResult.Acquired) result).handle();
	}

	/** The first answer that is not a failure: right after a restart Lettuce may still reconnect. */
	private static AcquireResult answered(LockStore store, String key) {
		return await().atMost(AWAIT)
			.pollInterval(Duration.ofMillis(100))
			.until(() -> Stages.join(store.acquire(new LockRequest(key, TTL))),
					(result) -> !(result instanceof AcquireResult.Failed));
	}

	private static String marker(String key) {
		return new String(FencingCounters.markerKey(key.getBytes(StandardCharsets.UTF_8)), StandardCharsets.US_ASCII);
	}

	private static long uptimeSeconds() {
		String info = redis.commands().info("server");
		return info.lines()
			.filter((line) -> line.startsWith("uptime_in_seconds:"))
			.mapToLong((line) -> Long.parseLong(line.substring("uptime_in_seconds:".length()).strip()))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * The store contract with a lock-delay, once the server's own delay after its start has
	 * passed: every acquire goes through the delayed acquire script.
	 */
	@Nested
	class Contract extends LockStoreContract {

		@Override
		protected LockStore createStore() {
			await().atMost(AWAIT).until(() -> uptimeSeconds() > DELAY.toSeconds() + 1);
			return delayed;
		}

	}

}
