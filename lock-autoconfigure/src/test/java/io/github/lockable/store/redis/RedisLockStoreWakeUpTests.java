package io.github.lockable.store.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the contract suite cannot see of the Redis store's waiting: the wake-up channel,
 * the one pub/sub connection, its subscriptions, and what happens when it drops. On a
 * server without sharded pub/sub (Redis 6.2) the channel is a classic one, and so is
 * every subscription the tests look at.
 */
@ExtendWith(RedisExtension.class)
class RedisLockStoreWakeUpTests {

	private static final Duration LONG = Duration.ofSeconds(30);

	/** A CLIENT LIST line of a client with a channel, pattern or shard channel. */
	private static final Pattern SUBSCRIPTIONS = Pattern.compile(" (sub|psub|ssub)=[1-9]");

	private RedisTestServer redis;

	private LettuceConnectionFactory connectionFactory;

	private RedisLockStore store;

	private String prefix;

	/** Whether the server has sharded pub/sub, which the store then uses. */
	private boolean sharded;

	@BeforeEach
	void startStore(RedisTestServer redis) {
		this.redis = redis;
		List<Object> spublish = redis.commands().commandInfo("SPUBLISH");
		this.sharded = !spublish.isEmpty() && spublish.get(0) != null;
		this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(10));
		this.store = new RedisLockStore(this.connectionFactory, Duration.ofSeconds(5));
		this.prefix = "wake:" + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

	@AfterEach
	void stopStore() {
		this.store.close();
		this.connectionFactory.destroy();
	}

	@Test
	void releasePublishesOnTheLocksChannelInItsSlot() throws Exception {
		String key = this.prefix + "published";
		BlockingQueue<String> heard = new LinkedBlockingQueue<>();
		RedisClient client = RedisClient.create(RedisURI.create(this.redis.url()));
		try (StatefulRedisPubSubConnection<String, String> listener = client.connectPubSub()) {
			listener.addListener(new RedisPubSubAdapter<>() {
				@Override
				public void message(String channel, String message) {
					heard.add(channel);
				}

				@Override
				public void smessage(String channel, String message) {
					heard.add(channel);
				}
			});
			if (this.sharded) {
				listener.sync().ssubscribe("{" + key + "}:released");
			}
			else {
				listener.sync().subscribe("{" + key + "}:released");
			}
			LockHandle handle = acquired(key);
			assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
			assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("{" + key + "}:released");
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		assertThat(SlotHash.getSlot("{" + key + "}:released")).isEqualTo(SlotHash.getSlot(key));
	}

	@Test
	void manyWaitersShareOnePubSubConnectionAndUnsubscribeWhenTheyLeave() throws Exception {
		List<LockHandle> holders = new ArrayList<>();
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		String[] channels = new String[5];
		for (int k = 0; k < channels.length; k++) {
			String key = this.prefix + "shared-" + k;
			channels[k] = "{" + key + "}:released";
			holders.add(acquired(key));
			for (int i = 0; i < 10; i++) {
				waiters.add(this.store.awaitRelease(key, LONG).toCompletableFuture());
			}
		}
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(subscribers(channels)).containsOnly(1L));
		assertThat(pubSubClients()).hasSize(1);
		assertThat(waiters).noneMatch(CompletableFuture::isDone);

		holders.forEach((holder) -> Stages.join(holder.release()));
		CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(subscribers(channels)).containsOnly(0L));
	}

	@Test
	void waitersCompleteWhenThePubSubConnectionIsKilledAndWaitingWorksAgain() throws Exception {
		String key = this.prefix + "killed";
		LockHandle holder = acquired(key);
		CompletableFuture<Void> waiter = this.store.awaitRelease(key, LONG).toCompletableFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> pubSubClients().size() == 1);

		assertThat(this.redis.commands().clientKill(KillArgs.Builder.typePubsub())).isEqualTo(1L);
		assertThat(waiter.get(5, TimeUnit.SECONDS)).isNull();
		held(key);

		// Lettuce reconnects and subscribes its channels again; a subscription sent after
		// that shows that the woken waiter's channel was unsubscribed behind it.
		String other = this.prefix + "killed-other";
		LockHandle otherHolder = acquired(other);
		CompletableFuture<Void> probe = this.store.awaitRelease(other, LONG).toCompletableFuture();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(subscribers("{" + other + "}:released")).containsOnly(1L));
		assertThat(subscribers("{" + key + "}:released")).containsOnly(0L);
		Stages.join(otherHolder.release());
		assertThat(probe.get(5, TimeUnit.SECONDS)).isNull();

		CompletableFuture<Void> again = this.store.awaitRelease(key, LONG).toCompletableFuture();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(subscribers("{" + key + "}:released")).containsOnly(1L));
		assertThat(again).isNotDone();
		Stages.join(holder.release());
		assertThat(again.get(5, TimeUnit.SECONDS)).isNull();
	}

	@Test
	void releaseWithAnotherTokenNeitherDeletesNorWakes() throws Exception {
		String key = this.prefix + "foreign";
		LockHandle owner = acquired(key);
		CompletableFuture<Void> waiter = this.store.awaitRelease(key, LONG).toCompletableFuture();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(subscribers("{" + key + "}:released")).containsOnly(1L));
		LockLease forged = new LockLease(key, UUID.randomUUID().toString(), 1, Instant.now(), LONG);
		assertThat(Stages.join(this.store.release(forged))).isEqualTo(ReleaseResult.NOT_OWNER);
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !waiter.isDone());
		assertThat(this.redis.commands().get(key)).isEqualTo(owner.lease().token());
		assertThat(Stages.join(owner.release())).isEqualTo(ReleaseResult.RELEASED);
		assertThat(waiter.get(5, TimeUnit.SECONDS)).isNull();
	}

	@Test
	void closingTheStoreWakesItsWaitersAndClosesItsPubSubConnection() throws Exception {
		String key = this.prefix + "closed";
		acquired(key);
		CompletableFuture<Void> waiter = this.store.awaitRelease(key, LONG).toCompletableFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> pubSubClients().size() == 1);
		this.store.close();
		assertThat(waiter.get(5, TimeUnit.SECONDS)).isNull();
		await().atMost(Duration.ofSeconds(10)).until(() -> pubSubClients().isEmpty());
	}

	private LockHandle acquired(String key) {
		AcquireResult result = Stages.join(this.store.acquire(new LockRequest(key, LONG)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	private void held(String key) {
		assertThat(Stages.join(this.store.acquire(new LockRequest(key, LONG)))).isInstanceOf(AcquireResult.Held.class);
	}

	private List<Long> subscribers(String... channels) {
		Map<String, Long> counts = this.sharded ? this.redis.commands().pubsubShardNumsub(channels)
				: this.redis.commands().pubsubNumsub(channels);
		return Arrays.stream(channels).map(counts::get).toList();
	}

	private List<String> pubSubClients() {
		return this.redis.commands()
			.clientList()
			.lines()
			// Redis 6.2 has no ssub= field.
			.filter((line) -> SUBSCRIPTIONS.matcher(line).find())
			.toList();
	}

}
