package io.github.lockable.it;

import io.github.lockable.test.redis.RedisClusterTestServer;
import io.github.lockable.test.redis.RedisTopology;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The end-to-end tests with the application on a Redis Cluster of three masters, through
 * {@code spring.data.redis.cluster.nodes}.
 */
class LockableClusterHttpTests extends LockableHttpTests {

	@DynamicPropertySource
	static void cluster(DynamicPropertyRegistry registry) {
		RedisClusterTestServer.shared().registerProperties(registry);
	}

	@Override
	protected RedisTopology topology() {
		return RedisClusterTestServer.shared();
	}

}
