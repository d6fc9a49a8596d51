package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.StoredLock;
import io.github.lockable.test.Stages;
import io.github.lockable.test.redis.RedisClusterTestServer;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Redis store's listing and force-release against real servers, beyond the store
 * contract: every master of a Cluster scanned, values the store did not write, the store's
 * own keys, prefixes with glob characters, and a force-release seen by the holder and its
 * waiters.
 */
class RedisLockListingTests {

	private static final Duration TTL = Duration.ofSeconds(60);

	private static final LockHolder HOLDER = new LockHolder("listing@localhost", 4711, "Listing.case()");

	private static RedisTestServer redis;

	private static LettuceConnectionFactory connectionFactory;

	private static RedisLockStore store;

	@BeforeAll
	static void startStore() {
		redis = RedisTestServer.shared();
		connectionFactory = redis.connectionFactory(Duration.ofSeconds(10));
		store = new RedisLockStore(connectionFactory, Duration.ofSeconds(5));
	}

	@AfterAll
	static void stopStore() {
		store.close();
		connectionFactory.destroy();
	}

	/**
	 * The locks are taken by one instance and listed by another, just started, as an
	 * operator lists them: its connections to the masters are opened by the listing.
	 */
	@Test
	void clusterListsTheLocksOfEveryMaster() {
		RedisClusterTestServer cluster = RedisClusterTestServer.shared();
		Map<String, Object> properties = Map.of("lockable.acquire-timeout", "5s");
		try (ConfigurableApplicationContext holding = TopologyLockStoreTests.start(cluster, properties);
				ConfigurableApplicationContext listing = TopologyLockStoreTests.start(cluster, properties)) {
			RedisLockStore holder = holding.getBean(RedisLockStore.class);
			RedisLockStore clustered = listing.getBean(RedisLockStore.class);
			String prefix = prefix();
			List<LockHandle> handles = new ArrayList<>();
			Set<Integer> slots = new HashSet<>();
			for (int i = 0; i < 300; i++) {
				// a random part: keys that differ in a counter only share slots far more often
				// than random keys (CRC16 is linear), 56 of 300 in one run
				String key = prefix + "spread-" + i + "-" + UUID.randomUUID();
				slots.add(SlotHash.getSlot(key));
				handles.add(acquired(holder, key));
			}
			assertThat(slots).hasSizeGreaterThan(250);
			for (var master : cluster.masters()) {
				assertThat(master.keys(prefix + "*")).as("locks on the master %s", master).isNotEmpty();
			}
			LockListing all = listing(clustered, prefix, 1000);
			assertThat(all.truncated()).isFalse();
			assertThat(all.locks()).extracting(StoredLock::key)
				.containsExactlyInAnyOrderElementsOf(handles.stream().map((handle) -> handle.lease().key()).toList());
			assertThat(all.locks()).allSatisfy((lock) -> assertThat(lock.holder()).isEqualTo(HOLDER));
			LockListing cut = listing(clustered, prefix, 100);
			assertThat(cut.locks()).hasSize(100);
			assertThat(cut.truncated()).isTrue();
			handles.forEach((handle) -> Stages.join(handle.release()));
		}
	}

	@Test
	void foreignValueIsListedWithoutHolder() {
		String prefix = prefix();
		redis.commands().set(prefix + "foreign", "written-by-another-client", SetArgs.Builder.px(TTL.toMillis()));
		// a key of another type under the prefix is no lock, and fails nothing
		redis.commands().hset(prefix + "a-hash", "field", "value");
		LockListing found = listing(store, prefix, 100);
		assertThat(found.locks()).singleElement().satisfies((lock) -> {
			assertThat(lock.key()).isEqualTo(prefix + "foreign");
			assertThat(lock.holder()).isNull();
			assertThat(lock.acquiredAt()).isNull();
			assertThat(lock.ttlLeft()).isPositive().isLessThanOrEqualTo(TTL);
		});
		redis.commands().del(prefix + "foreign", prefix + "a-hash");
	}

	@Test
	void holderFieldsWithSeparatorsRoundTripEscaped() {
		String prefix = prefix();
		LockHolder awkward = new LockHolder("orders\t%41@host\none", 42, "Type.name(a\r\nb%)");
		AcquireResult result = Stages.join(store.acquire(new LockRequest(prefix + "awkward", TTL, false, awkward)));
		LockHandle handle = ((AcquireResult.Acquired) result).handle();
		String stored = redis.commands().get(prefix + "awkward");
		assertThat(stored).isEqualTo(handle.lease().token()).doesNotContain("\n", "\r");
		assertThat(stored.chars().filter((c) -> c == '\t')).hasSize(2);
		assertThat(listing(store, prefix, 100).locks()).singleElement()
			.satisfies((lock) -> assertThat(lock.holder()).isEqualTo(awkward));
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void storeKeysAndOtherPrefixesAreNotListed() {
		String name = "lst" + UUID.randomUUID().toString().substring(0, 8);
		// under "lockable:", where the fencing counters and delay markers live too
		String prefix = "lockable:";
		AcquireResult result = Stages.join(store.acquire(new LockRequest(prefix + name, TTL, true, HOLDER)));
		LockHandle handle = ((AcquireResult.Acquired) result).handle();
		assertThat(redis.commands().keys("lockable:fence:*")).isNotEmpty();
		redis.commands().set(name + "-other:a", "x", SetArgs.Builder.px(TTL.toMillis()));
		LockListing found = listing(store, prefix, 1000);
		assertThat(found.locks()).extracting(StoredLock::key)
			.contains(prefix + name)
			.noneMatch((key) -> key.startsWith("lockable:fence:"));
		assertThat(listing(store, name + ":", 100).locks()).isEmpty();
		assertThat(listing(store, name + "-other:", 100).locks()).extracting(StoredLock::key)
			.containsExactly(name + "-other:a");
		Stages.join(handle.release());
		redis.commands().del(name + "-other:a");
	}

	@Test
	void globCharactersInThePrefixMatchOnlyThemselves() {
		String id = UUID.randomUUID().toString().substring(0, 8);
		String prefix = "g*" + id + "?[x]\\^:";
		List<String> decoys = List.of("gAB" + id + "?[x]\\^:b", "g*" + id + "Y[x]\\^:c", "g*" + id + "?x\\^:d",
				"g*" + id + "?[x]^:e");
		List<LockHandle> handles = new ArrayList<>();
		handles.add(acquired(store, prefix + "a"));
		decoys.forEach((decoy) -> handles.add(acquired(store, decoy)));
		assertThat(listing(store, prefix, 100).locks()).extracting(StoredLock::key)
			.containsExactly(prefix + "a");
		handles.forEach((handle) -> Stages.join(handle.release()));
	}

	@Test
	void forceReleaseWakesAWaiterAndTheOldLeaseIsNotTheOwner() throws Exception {
		String key = prefix() + "forced";
		LockHandle old = acquired(store, key);
		CompletableFuture<Void> waiter = store.awaitRelease(key, TTL).toCompletableFuture();
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !waiter.isDone());
		assertThat(Stages.join(store.forceRelease(key))).isTrue();
		// far below the maximum wait: only the force-release's publish can have woken it
		assertThat(waiter.get(5, TimeUnit.SECONDS)).isNull();
		assertThat(redis.commands().exists(key)).isZero();
		assertThat(Stages.join(old.release())).isEqualTo(ReleaseResult.NOT_OWNER);
		assertThat(Stages.join(store.forceRelease(key))).isFalse();
	}

	private static LockHandle acquired(RedisLockStore on, String key) {
		AcquireResult result = Stages.join(on.acquire(new LockRequest(key, TTL, false, HOLDER)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	/** Bounded, so that a listing that never answers fails the test instead of hanging it. */
	private static LockListing listing(RedisLockStore on, String prefix, int limit) {
		return Stages.join(on.locks(prefix, limit).toCompletableFuture().orTimeout(30, TimeUnit.SECONDS));
	}

	private static String prefix() {
		return "listing:" + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

}
