package io.github.lockable.store.redis;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.lockable.test.Stages;
import io.github.lockable.store.LockHandle;
import io.github.lockable.test.redis.RedisSentinelTestServer;
import io.github.lockable.test.redis.RedisTopology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store contract on a master and its replica found through Redis Sentinel.
 */
class RedisSentinelLockStoreTests extends TopologyLockStoreTests {

	private final RedisSentinelTestServer sentinel = RedisSentinelTestServer.shared();

	@Override
	protected RedisTopology topology() {
		return this.sentinel;
	}

	@Test
	void lockIsWrittenOnTheMasterSentinelNamesAndReachesTheReplica() {
		// A failover test may have run just before: the replica must be in sync again first
		this.sentinel.awaitStable();
		LockHandle handle = acquired(key("replicated"), LONG_TTL).handle();
		String token = handle.lease().token();
		assertThat(this.sentinel.node(this.sentinel.masterPort()).get(key("replicated"))).isEqualTo(token);
		await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.until(() -> token.equals(this.sentinel.node(this.sentinel.replicaPort()).get(key("replicated"))));
		Stages.join(handle.release());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.sentinel.node(this.sentinel.replicaPort()).exists(key("replicated")) == 0);
	}

}
