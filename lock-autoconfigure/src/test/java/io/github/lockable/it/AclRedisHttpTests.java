package io.github.lockable.it;

import org.junit.jupiter.api.AfterEach;

import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SecuredRedisServers;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP flows as the least-privileged ACL user of the README, the default user off:
 * the server refuses nothing the application sends.
 */
class AclRedisHttpTests extends SecuredRedisHttpTests {

	private static final RedisTestServer server = SecuredRedisServers.startWithAclUser();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		server.registerProperties(registry, SecuredRedisServers.LOCKABLE_USER);
	}

	@Override
	RedisTestServer redis() {
		return server;
	}

	@AfterEach
	void serverRefusedNothing() {
		assertThat(SecuredRedisServers.aclDenials(server)).isEmpty();
	}

}
