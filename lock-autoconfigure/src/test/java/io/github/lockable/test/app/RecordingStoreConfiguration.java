package io.github.lockable.test.app;

import io.github.lockable.autoconfigure.LockableProperties;
import io.github.lockable.store.redis.RedisLockStore;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What the test applications share: the Redis store, recording every call, and the gate
 * that holds a locked method until the test opens it.
 */
@Configuration(proxyBeanMethods = false)
public class RecordingStoreConfiguration {

	@Bean
	Gate gate() {
		return new Gate();
	}

	@Bean
	RecordingLockStore recordingLockStore(LettuceConnectionFactory connectionFactory, LockableProperties properties) {
		return new RecordingLockStore(new RedisLockStore(connectionFactory, properties.getAcquireTimeout(),
				properties.getRedis().getReplicasToAck()));
	}

}
