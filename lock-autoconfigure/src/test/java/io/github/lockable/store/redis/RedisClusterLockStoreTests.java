package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import io.github.lockable.test.Stages;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisClusterTestServer;
import io.github.lockable.test.redis.RedisTopology;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store contract on a Redis Cluster of three masters, and where a lock's keys and
 * channel live there.
 */
class RedisClusterLockStoreTests extends TopologyLockStoreTests {

	private final RedisClusterTestServer cluster = RedisClusterTestServer.shared();

	@Override
	protected RedisTopology topology() {
		return this.cluster;
	}

	/**
	 * Every script (acquire with its fencing counter, extend, release with its publish)
	 * and the wake-up run on locks of every master, each on the master of its slot.
	 */
	@Test
	void locksOfEveryMasterAcquireExtendWakeAndRelease() throws Exception {
		List<LockHandle> handles = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			handles.add(acquired(key("spread-" + i), LONG_TTL).handle());
		}
		long total = 0;
		for (RedisCommands<String, String> master : this.cluster.masters()) {
			int onThisMaster = master.keys(key("spread-") + "*").size();
			assertThat(onThisMaster).as("locks on the master at %s", master).isPositive();
			total += onThisMaster;
		}
		assertThat(total).isEqualTo(handles.size());
		// A counter serves a whole slot: two of the keys may share one, which then holds the later token.
		Map<String, Long> lastTokens = handles.stream()
			.collect(Collectors.toMap((handle) -> counter(handle.lease().key()),
					(handle) -> handle.lease().fencingToken(), Math::max));
		for (LockHandle handle : handles) {
			String key = handle.lease().key();
			RedisCommands<String, String> master = this.cluster.masters()
				.get(this.cluster.ports().indexOf(this.cluster.masterPortOf(key)));
			assertThat(master.get(key)).isEqualTo(handle.lease().token());
			assertThat(master.get(counter(key))).isEqualTo(Long.toString(lastTokens.get(counter(key))));
			assertThat(Stages.join(handle.extend(LONG_TTL.plusSeconds(10)))).isTrue();
			assertThat(master.pttl(key)).isGreaterThan(LONG_TTL.toMillis());
			CompletableFuture<Void> waiter = store().awaitRelease(key, LONG_TTL).toCompletableFuture();
			assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
			// Far below the maximum wait: only the sharded publish can have woken it.
			waiter.get(5, TimeUnit.SECONDS);
			assertThat(master.exists(key)).isZero();
		}
	}

	/**
	 * The server's own CLUSTER KEYSLOT puts the fencing counter and the wake-up channel in
	 * the lock key's slot.
	 */
	@Test
	void fencingCounterAndWakeUpChannelAreInTheLockKeysSlot() {
		for (int i = 0; i < 50; i++) {
			String key = key("slot-" + i);
			Long slot = this.cluster.commands().clusterKeyslot(key);
			assertThat(this.cluster.commands().clusterKeyslot(counter(key))).as(key).isEqualTo(slot);
			assertThat(this.cluster.commands().clusterKeyslot(RedisLockNotifications.channel(key))).as(key)
				.isEqualTo(slot);
		}
	}

	private static String counter(String key) {
		return new String(FencingCounters.counterKey(key.getBytes(StandardCharsets.UTF_8)), StandardCharsets.US_ASCII);
	}

}
