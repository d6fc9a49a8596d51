package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.Stages;
import io.github.lockable.test.redis.CommandStats;
import io.github.lockable.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store on a server without sharded pub/sub, as Redis 6.2 is: the harness's own
 * (LOCKABLE_TEST_REDIS_BIN pointing at a 6.2 build), else one whose configuration renames
 * SPUBLISH and SSUBSCRIBE away. The store finds out once, as a connection opens: no
 * release tries SPUBLISH (which would count as an error reply each time), every release
 * publishes by PUBLISH, and waiters wake by it.
 */
class RedisLockStoreClassicPubSubTests {

	private static final Duration LONG = Duration.ofSeconds(30);

	private static RedisTestServer redis;

	@BeforeAll
	static void startServerWithoutShardedPubSub() {
		RedisTestServer plain = RedisTestServer.process().start();
		if (!hasSpublish(plain)) {
			redis = plain;
			return;
		}
		plain.close();
		redis = RedisTestServer.process()
			.config("rename-command SPUBLISH \"\"")
			.config("rename-command SSUBSCRIBE \"\"")
			.start();
	}

	@AfterAll
	static void stopServer() {
		redis.close();
	}

	@Test
	void theServerIsFoundWithoutShardedPubSubOnce() {
		RedisClient client = RedisClient.create(RedisURI.create(redis.url()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			RedisServerFeatures server = RedisServerFeatures.detect(connection.async()).join();
			assertThat(server.sharded()).isFalse();
			assertThat(server.version()).isNotEqualTo("unknown");
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	@Test
	void releasesPublishClassicallyWakeTheirWaitersAndNeverTrySpublish() throws Exception {
		var connectionFactory = redis.connectionFactory(Duration.ofSeconds(10));
		RedisLockStore store = new RedisLockStore(connectionFactory, Duration.ofSeconds(5));
		try {
			// Opens the store's connections, whose handshakes a server may refuse in part
			// (CLIENT SETINFO before Redis 7.2), before the errors are counted.
			releaseToAWaiter(store, "classic:warm-up");
			long errorsBefore = errorReplies();
			long publishesBefore = CommandStats.calls(redis, "publish");
			int releases = 5;
			for (int i = 0; i < releases; i++) {
				releaseToAWaiter(store, "classic:" + i);
			}
			assertThat(CommandStats.calls(redis, "publish") - publishesBefore).isEqualTo(releases);
			assertThat(errorReplies()).as("error replies, an SPUBLISH tried in a script among them")
				.isEqualTo(errorsBefore);
		}
		finally {
			store.close();
			connectionFactory.destroy();
		}
	}

	private static void releaseToAWaiter(RedisLockStore store, String key) throws Exception {
		LockHandle holder = acquired(store, key);
		CompletableFuture<Void> waiter = store.awaitRelease(key, LONG).toCompletableFuture();
		awaitSubscribed("{" + key + "}:released");
		assertThat(waiter).isNotDone();
		assertThat(Stages.join(holder.release())).isEqualTo(ReleaseResult.RELEASED);
		// Woken by the release's PUBLISH, long before the waiter's maximum wait.
		assertThat(waiter.get(5, TimeUnit.SECONDS)).isNull();
	}

	private static LockHandle acquired(RedisLockStore store, String key) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, LONG)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	private static void awaitSubscribed(String channel) {
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> redis.commands().pubsubNumsub(channel).get(channel) == 1L);
	}

	private static boolean hasSpublish(RedisTestServer server) {
		List<Object> info = server.commands().commandInfo("SPUBLISH");
		return !info.isEmpty() && info.get(0) != null;
	}

	/** {@code total_error_replies} of INFO stats (Redis 6.2 and later). */
	private static long errorReplies() {
		Map<String, String> stats = new java.util.HashMap<>();
		redis.commands().info("stats").lines().filter((line) -> line.contains(":")).forEach((line) -> {
			int colon = line.indexOf(':');
			stats.put(line.substring(0, colon), line.substring(colon + 1).trim());
		});
		return Long.parseLong(stats.getOrDefault("total_error_replies", "0"));
	}

}
