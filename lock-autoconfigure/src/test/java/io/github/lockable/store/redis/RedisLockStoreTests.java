package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import io.lettuce.core.cluster.SlotHash;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockStoreContract;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(RedisExtension.class)
class RedisLockStoreTests extends LockStoreContract {

	/** Generous for the contract suite: 16 threads on a small, shared machine. */
	private static final String COUNTER_KEY = "lockable:fence:\\{[0-9A-Za-z]{1,3}\\}";

	private static final Duration CONTRACT_TIMEOUT = Duration.ofSeconds(5);

	/** For the fault tests, which wait for it to run out. */
	private static final Duration TIMEOUT = Duration.ofMillis(500);

	/** Slack on top of the timeout for thread scheduling on a loaded machine. */
	private static final Duration SLACK = Duration.ofMillis(1500);

	private static RedisTestServer redis;

	private static LettuceConnectionFactory connectionFactory;

	private static RedisLockStore store;

	@BeforeAll
	static void startStore() {
		redis = RedisTestServer.shared();
		connectionFactory = redis.connectionFactory(Duration.ofSeconds(10));
		store = new RedisLockStore(connectionFactory, CONTRACT_TIMEOUT);
	}

	@AfterAll
	static void stopStore() {
		store.close();
		connectionFactory.destroy();
	}

	@AfterEach
	void serverAnswersAgain() {
		redis.recover();
	}

	@Override
	protected LockStore createStore() {
		return store;
	}

	@Test
	void lockIsTheTokenAtTheKeyWithAPxExpiry() {
		LockHandle handle = acquired(key("inspect"), Duration.ofSeconds(20)).handle();
		assertThat(redis.commands().get(key("inspect"))).isEqualTo(handle.lease().token());
		assertThat(redis.commands().pttl(key("inspect"))).isBetween(1L, 20_000L);
		Stages.join(handle.release());
		assertThat(redis.commands().exists(key("inspect"))).isZero();
	}

	@Test
	void keyWithoutExpiryIsHeldWithUnknownRemainingTtl() {
		redis.commands().set(key("foreign"), "someone-else");
		AcquireResult.Held held = held(key("foreign"), LONG_TTL);
		assertThat(held.remainingTtl()).isNull();
		redis.commands().del(key("foreign"));
	}

	@Test
	void recoversFromNoscriptAfterScriptFlush() {
		Stages.join(acquired(key("noscript-warmup"), LONG_TTL).handle().release());
		// The release's variant for this server: PUBLISH where it has no SPUBLISH (Redis 6.2).
		LockScript release = LockScript.RELEASE.on(
				RedisServerFeatures.of(redis.commands().info("server"), redis.commands().commandInfo("SPUBLISH")));
		assertThat(redis.commands().scriptExists(LockScript.ACQUIRE.sha1(), release.sha1()))
			.containsExactly(true, true);
		redis.commands().scriptFlush();
		assertThat(redis.commands().scriptExists(LockScript.ACQUIRE.sha1())).containsExactly(false);

		LockHandle handle = acquired(key("noscript"), LONG_TTL).handle();
		redis.commands().scriptFlush();
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
		redis.commands().scriptFlush();
		LockHandle again = acquired(key("noscript"), LONG_TTL).handle();
		redis.commands().scriptFlush();
		assertThat(Stages.join(again.extend(LONG_TTL))).isTrue();
		redis.commands().scriptFlush();
		assertThat(again.release().toCompletableFuture().join()).isEqualTo(ReleaseResult.RELEASED);
		redis.commands().scriptFlush();
		assertThat(store.acquire(new LockRequest(key("noscript"), LONG_TTL, true)).toCompletableFuture().join())
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(redis.commands().scriptExists(LockScript.ACQUIRE.sha1())).containsExactly(true);
	}

	@Test
	void unreachableServerIsAStoreFailureWithinTheTimeout() {
		RedisStandaloneConfiguration nowhere = new RedisStandaloneConfiguration("127.0.0.1", unusedPort());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(nowhere,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
		factory.afterPropertiesSet();
		factory.start();
		try (RedisLockStore unreachable = new RedisLockStore(factory, TIMEOUT)) {
			long start = System.nanoTime();
			AcquireResult result = Stages.join(unreachable.acquire(new LockRequest(key("nowhere"), LONG_TTL)));
			assertThat(result).isInstanceOf(AcquireResult.Failed.class);
			assertThat(((AcquireResult.Failed) result).cause()).hasMessageContaining("Cannot connect to Redis");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plus(SLACK));
			assertThat(unreachable.acquire(new LockRequest(key("nowhere"), LONG_TTL)).toCompletableFuture().join())
				.isInstanceOf(AcquireResult.Failed.class);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void pausedServerIsAStoreFailureWithinTheTimeout() {
		try (RedisLockStore impatient = new RedisLockStore(connectionFactory, TIMEOUT)) {
			LockHandle held = ((AcquireResult.Acquired) Stages.join(impatient.acquire(new LockRequest(key("paused"), LONG_TTL))))
				.handle();
			redis.pause(Duration.ofSeconds(3));

			long start = System.nanoTime();
			AcquireResult result = Stages.join(impatient.acquire(new LockRequest(key("paused-other"), LONG_TTL)));
			Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
			assertThat(result).isInstanceOf(AcquireResult.Failed.class);
			assertThat(((AcquireResult.Failed) result).cause()).hasMessageContaining("did not answer within 500ms");
			assertThat(elapsed).isGreaterThanOrEqualTo(TIMEOUT.minusMillis(50)).isLessThan(TIMEOUT.plus(SLACK));

			start = System.nanoTime();
			assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> Stages.join(held.release()))
				.withMessageContaining("did not answer");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plus(SLACK));

			start = System.nanoTime();
			AcquireResult async = impatient.acquire(new LockRequest(key("paused-async"), LONG_TTL))
				.toCompletableFuture()
				.join();
			assertThat(async).isInstanceOf(AcquireResult.Failed.class);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plus(SLACK));

			redis.recover();
			// The commands we gave up on still reach the server after the pause. The timed-out
			// acquires are followed by a release with the same token, so they leave no lock;
			// the timed-out release deletes its lock late.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> redis.commands()
					.exists(key("paused-other"), key("paused-async"), key("paused")) == 0);
		}
	}

	@Test
	void recoversAfterTheServerRestarts() {
		assumeThat(redis.supportsRestart()).as("the harness owns the server").isTrue();
		Stages.join(acquired(key("restart-warmup"), LONG_TTL).handle().release());
		redis.stop();
		try (RedisLockStore impatient = new RedisLockStore(connectionFactory, TIMEOUT)) {
			AcquireResult down = Stages.join(impatient.acquire(new LockRequest(key("restart"), LONG_TTL)));
			assertThat(down).isInstanceOf(AcquireResult.Failed.class);
		}
		redis.start();
		// A restarted server has an empty script cache: the first call goes through NOSCRIPT.
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> Stages.join(store.acquire(new LockRequest(key("restart"), LONG_TTL))) instanceof AcquireResult.Acquired a
					&& Stages.join(a.handle().release()) == ReleaseResult.RELEASED);
	}

	@Test
	void fencingTokensKeepGrowingAfterARestartWithoutPersistence() {
		assumeThat(redis.supportsRestart()).as("the harness owns the server").isTrue();
		String key = key("fence-restart");
		String counter = counterOf(key);
		LockHandle before = tokenAcquired(key);
		Stages.join(before.release());
		redis.stop();
		redis.start();
		assertThat(redis.commands().exists(counter)).as("the server forgot the counter").isZero();
		// The first call after the restart goes through NOSCRIPT; the lazy token is the FENCE script.
		LockHandle after = ((AcquireResult.Acquired) await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> Stages.join(store.acquire(new LockRequest(key, LONG_TTL))),
					AcquireResult.Acquired.class::isInstance))
			.handle();
		long token = Stages.join(store.fencingToken(after.lease()));
		assertThat(token).isGreaterThan(before.lease().fencingToken());
		Stages.join(after.release());
	}

	@Test
	void fencingTokensKeepGrowingWhenTheCounterWentBack() {
		// What a failover to a replica that missed the last increments leaves behind.
		String key = key("fence-lagging");
		LockHandle first = tokenAcquired(key);
		Stages.join(first.release());
		redis.commands().set(counterOf(key), "0");
		LockHandle second = tokenAcquired(key);
		assertThat(second.lease().fencingToken()).isGreaterThan(first.lease().fencingToken());
		assertThat(redis.commands().get(counterOf(key))).isEqualTo(Long.toString(second.lease().fencingToken()));
		Stages.join(second.release());
	}

	private static LockHandle tokenAcquired(String key) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, LONG_TTL, true)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	private static String counterOf(String key) {
		return new String(FencingCounters.counterKey(key.getBytes(StandardCharsets.UTF_8)), StandardCharsets.US_ASCII);
	}

	@Test
	void scriptsTouchOnlyTheirOneKeyButAcquireAlsoItsFencingCounter() {
		for (LockScript script : List.of(LockScript.ACQUIRE, LockScript.RELEASE, LockScript.EXTEND)) {
			String source = new String(script.source(), java.nio.charset.StandardCharsets.UTF_8);
			assertThat(source).contains("KEYS[1]").doesNotContain("KEYS[3]");
			if (script != LockScript.ACQUIRE) {
				assertThat(source).doesNotContain("KEYS[2]");
			}
		}
	}

	@Test
	void fencingCounterIsInTheLockKeysSlot() {
		Random random = new Random(8);
		for (int i = 0; i < 300; i++) {
			String part = Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
			String lockKey = switch (i % 3) {
				case 0 -> "lock:" + part;
				case 1 -> "lock:{" + part + "}:orders";
				default -> "{" + part.substring(0, 1 + i % part.length()) + "}" + part;
			};
			byte[] counter = FencingCounters.counterKey(lockKey.getBytes(StandardCharsets.UTF_8));
			assertThat(new String(counter, StandardCharsets.US_ASCII)).matches(COUNTER_KEY);
			assertThat(SlotHash.getSlot(counter)).as(lockKey).isEqualTo(SlotHash.getSlot(lockKey));
		}
	}

	@Test
	void fencingCountersStayOnePerSlotHoweverManyLockKeys() {
		Set<Integer> slots = new HashSet<>();
		Set<String> counters = new HashSet<>();
		for (int i = 0; i < 5000; i++) {
			String lockKey = key("user-" + i);
			Stages.join(acquired(lockKey, LONG_TTL).handle().release());
			slots.add(SlotHash.getSlot(lockKey));
			counters.add(new String(FencingCounters.counterKey(lockKey.getBytes(StandardCharsets.UTF_8)),
					StandardCharsets.US_ASCII));
		}
		assertThat(counters).hasSameSizeAs(slots);
		assertThat(redis.commands().exists(counters.toArray(String[]::new))).isEqualTo(counters.size());
		List<String> all = redis.commands().keys("lockable:fence:*");
		assertThat(all).hasSizeLessThanOrEqualTo(SlotHash.SLOT_COUNT).allMatch((key) -> key.matches(COUNTER_KEY));
	}

	@Test
	void plainAcquireSendsSetNxPxAndNoScript() {
		String key = key("plain");
		Stages.join(acquired(key, LONG_TTL).handle().release());
		long setsBefore = calls("set");
		long scriptsBefore = calls("evalsha") + calls("eval");
		LockHandle handle = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest(key, LONG_TTL))))
			.handle();
		assertThat(calls("set")).isEqualTo(setsBefore + 1);
		assertThat(calls("evalsha") + calls("eval")).isEqualTo(scriptsBefore);
		assertThat(redis.commands().pttl(key)).isPositive();
		assertThat(handle.lease().fencingToken()).as("issued when first asked for").isZero();
		assertThat(Stages.join(handle.fencingToken())).isPositive();
		Stages.join(handle.release());
	}

	@Test
	void refusedAcquireSendsSetThenOneScriptForTheHoldersTtl() {
		String key = key("refused");
		LockHandle holder = acquired(key, LONG_TTL).handle();
		long scriptsBefore = calls("evalsha") + calls("eval");
		AcquireResult refused = Stages.join(store.acquire(new LockRequest(key, LONG_TTL)));
		assertThat(refused).isInstanceOfSatisfying(AcquireResult.Held.class,
				(held) -> assertThat(held.remainingTtl()).isPositive());
		assertThat(calls("evalsha") + calls("eval")).as("docs/stores.md: a refused acquire takes two round trips")
			.isEqualTo(scriptsBefore + 1);
		Stages.join(holder.release());
	}

	/** Calls of a command the server counted, from {@code INFO commandstats}. */
	private static long calls(String command) {
		Matcher matcher = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)")
			.matcher(redis.commands().info("commandstats"));
		return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
	}

	@Test
	void fencingTokensKeepIncreasingAfterScriptFlush() {
		long first = acquired(key("fence-noscript"), LONG_TTL).handle().lease().fencingToken();
		redis.commands().del(key("fence-noscript"));
		redis.commands().scriptFlush();
		LockHandle second = acquired(key("fence-noscript"), LONG_TTL).handle();
		assertThat(second.lease().fencingToken()).isGreaterThan(first);
		Stages.join(second.release());
		redis.commands().scriptFlush();
		AcquireResult third = store.acquire(new LockRequest(key("fence-noscript"), LONG_TTL, true))
			.toCompletableFuture()
			.join();
		assertThat(third).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(((AcquireResult.Acquired) third).handle().lease().fencingToken())
			.isGreaterThan(second.lease().fencingToken());
		Stages.join(((AcquireResult.Acquired) third).handle().release());
	}

	@Test
	void fencingCounterWithoutExpiryOutlivesADeletedLock() {
		LockHandle deleted = acquired(key("fence-del"), LONG_TTL).handle();
		String counter = new String(FencingCounters.counterKey(key("fence-del").getBytes(StandardCharsets.UTF_8)),
				StandardCharsets.US_ASCII);
		redis.commands().del(key("fence-del"));
		assertThat(redis.commands().pttl(counter)).isEqualTo(-1L);
		LockHandle next = acquired(key("fence-del"), LONG_TTL).handle();
		assertThat(next.lease().fencingToken()).isGreaterThan(deleted.lease().fencingToken());
		assertThat(redis.commands().get(counter)).isEqualTo(Long.toString(next.lease().fencingToken()));
		Stages.join(next.release());
	}

	private static int unusedPort() {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
				java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
