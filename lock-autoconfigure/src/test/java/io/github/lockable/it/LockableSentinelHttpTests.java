package io.github.lockable.it;

import io.github.lockable.test.redis.RedisSentinelTestServer;
import io.github.lockable.test.redis.RedisTopology;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The end-to-end tests with the application on a master found through Redis Sentinel,
 * through {@code spring.data.redis.sentinel.*}.
 */
class LockableSentinelHttpTests extends LockableHttpTests {

	@DynamicPropertySource
	static void sentinel(DynamicPropertyRegistry registry) {
		RedisSentinelTestServer.shared().registerProperties(registry);
	}

	@Override
	protected RedisTopology topology() {
		return RedisSentinelTestServer.shared();
	}

}
