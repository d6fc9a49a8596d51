package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisClusterTestServer;
import io.github.lockable.test.redis.RedisSentinelTestServer;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * {@code lockable.redis.replicas-to-ack} on a master with one replica behind Sentinel.
 */
class RedisReplicasToAckTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	/** Slack on top of the timeout for thread scheduling on a loaded machine. */
	private static final Duration SLACK = Duration.ofMillis(1500);

	private final RedisSentinelTestServer sentinel = RedisSentinelTestServer.shared();

	@Test
	void lockAcknowledgedByTheOneReplicaIsAcquiredAndAlreadyOnTheReplica() {
		try (ConfigurableApplicationContext context = start(1)) {
			LockStore store = context.getBean(LockStore.class);
			String key = "replicas:" + UUID.randomUUID();
			AcquireResult result = Stages.join(store.acquire(new LockRequest(key, Duration.ofSeconds(30))));
			assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
			LockHandle handle = ((AcquireResult.Acquired) result).handle();
			// WAIT answered: the replica applied the write before the acquire returned.
			assertThat(this.sentinel.node(this.sentinel.replicaPort()).get(key)).isEqualTo(handle.lease().token());
			assertThat(Stages.join(store.acquire(new LockRequest(key, Duration.ofSeconds(30)))))
				.isInstanceOf(AcquireResult.Held.class);
			assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);

			AcquireResult async = store.acquire(new LockRequest(key, Duration.ofSeconds(30)))
				.toCompletableFuture()
				.join();
			assertThat(async).isInstanceOf(AcquireResult.Acquired.class);
			LockHandle asyncHandle = ((AcquireResult.Acquired) async).handle();
			assertThat(this.sentinel.node(this.sentinel.replicaPort()).get(key))
				.isEqualTo(asyncHandle.lease().token());
			Stages.join(asyncHandle.release());
		}
	}

	@Test
	void tooFewReplicasFailWithinTheTimeoutAndLeaveNoLock() {
		try (ConfigurableApplicationContext context = start(2)) {
			LockStore store = context.getBean(LockStore.class);
			String key = "replicas:" + UUID.randomUUID();
			long start = System.nanoTime();
			AcquireResult result = Stages.join(store.acquire(new LockRequest(key, Duration.ofSeconds(30))));
			Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
			assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class, (failed) -> {
				assertThat(failed.cause().getCode()).isEqualTo("REPLICATION");
				assertThat(failed.cause().getMessage()).contains("Only 1 of the 2 replicas");
			});
			// WAIT used most of the timeout, and no more than it.
			assertThat(elapsed).isBetween(TIMEOUT.dividedBy(2), TIMEOUT.plus(SLACK));
			assertThat(this.sentinel.commands().exists(key)).isZero();

			AcquireResult async = store.acquire(new LockRequest(key, Duration.ofSeconds(30)))
				.toCompletableFuture()
				.join();
			assertThat(async).isInstanceOfSatisfying(AcquireResult.Failed.class,
					(failed) -> assertThat(failed.cause().getCode()).isEqualTo("REPLICATION"));
			assertThat(this.sentinel.commands().exists(key)).isZero();
		}
	}

	@Test
	void replicasToAckIsRefusedOnRedisCluster() {
		assertThatException()
			.isThrownBy(() -> TopologyLockStoreTests.start(RedisClusterTestServer.shared(),
					Map.of("lockable.redis.replicas-to-ack", "1")))
			.satisfies((ex) -> assertThat(NestedExceptionUtils.getMostSpecificCause(ex))
				.isInstanceOf(LockableConfigurationException.class)
				.hasMessageContaining("lockable.redis.replicas-to-ack works on a standalone Redis or with Sentinel"));
	}

	private ConfigurableApplicationContext start(int replicasToAck) {
		return TopologyLockStoreTests.start(this.sentinel, Map.of("lockable.redis.replicas-to-ack",
				Integer.toString(replicasToAck), "lockable.acquire-timeout", TIMEOUT.toMillis() + "ms"));
	}

}
