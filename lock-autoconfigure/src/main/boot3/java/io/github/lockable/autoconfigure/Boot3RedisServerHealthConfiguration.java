package io.github.lockable.autoconfigure;

import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.store.redis.RedisServerStatus;

import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Redis store's health indicator on Spring Boot 3 ({@code org.springframework.boot.actuate.health}).
 * Compiled only on the 3.x line; {@link LockDirectoryHealthSelector} imports it by name.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = { "io.lettuce.core.RedisClient", "io.github.lockable.store.redis.RedisLockStore" })
@ConditionalOnBean(RedisLockStore.class)
@ConditionalOnEnabledHealthIndicator("lockable")
class Boot3RedisServerHealthConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lockableHealthIndicator")
	HealthIndicator lockableHealthIndicator(RedisLockStore store) {
		return new RedisServerHealthIndicator(store);
	}

	/**
	 * {@code UP} when the server can hold the store's locks, with its eviction policy, role
	 * and whether it runs the scripts, and a {@code warning} when it may evict locks;
	 * {@code DOWN} with the {@code reason} when every lock call fails there (a read-only
	 * replica, refused scripts) or the server does not answer.
	 */
	static class RedisServerHealthIndicator extends AbstractHealthIndicator {

		private final RedisLockStore store;

		RedisServerHealthIndicator(RedisLockStore store) {
			super("Redis lock store health check failed");
			this.store = store;
		}

		@Override
		protected void doHealthCheck(Health.Builder builder) {
			RedisServerStatus status = this.store.checkServer();
			(status.isUsable() ? builder.up() : builder.down()).withDetails(status.details());
		}

	}

}
