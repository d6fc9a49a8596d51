package io.github.lockable.it;

import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SecuredRedisServers;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The HTTP flows on a server with {@code requirepass}, the application configured with
 * {@code spring.data.redis.password} alone.
 */
class PasswordRedisHttpTests extends SecuredRedisHttpTests {

	private static final RedisTestServer server = SecuredRedisServers.startWithPassword();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		server.registerProperties(registry, SecuredRedisServers.REQUIREPASS);
	}

	@Override
	RedisTestServer redis() {
		return server;
	}

}
