package io.github.lockable.autoconfigure;

import io.github.lockable.store.LockStoreHealth;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The health indicator of a store that checks itself ({@link LockStoreHealth}: the Redis
 * server, the lock directory) on Spring Boot 3 ({@code org.springframework.boot.actuate.health}).
 * Compiled only on the 3.x line; {@link LockStoreHealthSelector} imports it by name.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBean(LockStoreHealth.class)
@ConditionalOnEnabledHealthIndicator("lockable")
class Boot3LockStoreHealthConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lockableHealthIndicator")
	HealthIndicator lockableHealthIndicator(LockStoreHealth store) {
		return new LockStoreHealthIndicator(store);
	}

	/**
	 * {@code UP} when the store can hold locks now, {@code DOWN} with the reason when every
	 * lock call would fail there, with what the store's check found as details.
	 */
	static class LockStoreHealthIndicator extends AbstractHealthIndicator {

		private final LockStoreHealth store;

		LockStoreHealthIndicator(LockStoreHealth store) {
			super("Lock store health check failed");
			this.store = store;
		}

		@Override
		protected void doHealthCheck(Health.Builder builder) {
			LockStoreHealth.Status status = this.store.checkHealth();
			(status.usable() ? builder.up() : builder.down()).withDetails(status.details());
		}

	}

}
