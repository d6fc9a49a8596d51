package io.github.lockable.autoconfigure;

import java.util.List;

import io.lettuce.core.RedisClient;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.redis.RedisLockStore;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis store, on the application's Lettuce connection factory.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(value = { LettuceConnectionFactory.class, RedisClient.class },
		name = "io.github.lockable.store.redis.RedisLockStore")
@ConditionalOnProperty(name = "lockable.store", havingValue = "redis", matchIfMissing = true)
class RedisLockStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	RedisLockStore redisLockStore(RedisConnectionFactory connectionFactory, LockableProperties properties) {
		if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
			throw new LockableConfigurationException(List.of("lockable.store=redis works on Lettuce, but the "
					+ "RedisConnectionFactory is a " + connectionFactory.getClass().getName()
					+ "; use Lettuce (spring.data.redis.client-type=lettuce, the default of "
					+ "spring-boot-starter-data-redis)"));
		}
		int replicasToAck = properties.getRedis().getReplicasToAck();
		if (replicasToAck > 0 && lettuce.isClusterAware()) {
			throw new LockableConfigurationException(List.of("lockable.redis.replicas-to-ack works on a standalone "
					+ "Redis or with Sentinel, not on Redis Cluster; set it to 0"));
		}
		return new RedisLockStore(lettuce, properties.getAcquireTimeout(), replicasToAck,
				properties.getRedis().getLockDelay());
	}

}
