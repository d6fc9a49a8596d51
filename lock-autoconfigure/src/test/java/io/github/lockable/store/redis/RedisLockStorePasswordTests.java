package io.github.lockable.store.redis;

import io.github.lockable.test.redis.RedisCredentials;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SecuredRedisServers;

/**
 * The store contract on a server with {@code requirepass}: the store logs in with the
 * password alone, as {@code spring.data.redis.password} does.
 */
class RedisLockStorePasswordTests extends SecuredRedisLockStoreTests {

	@Override
	RedisTestServer startServer() {
		return SecuredRedisServers.startWithPassword();
	}

	@Override
	RedisCredentials credentials() {
		return SecuredRedisServers.REQUIREPASS;
	}

}
