package io.github.lockable.autoconfigure;

import io.github.lockable.store.file.FileLockStore;
import io.github.lockable.store.file.LockDirectoryStatus;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The file store's health indicator on Spring Boot 4 ({@code org.springframework.boot.health}).
 * Compiled on every line (against Boot 4's health API, an optional dependency) so that the jar
 * built on Boot 3 carries it; {@link LockDirectoryHealthSelector} imports it only on Boot 4.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.github.lockable.store.file.FileLockStore")
@ConditionalOnBean(FileLockStore.class)
@ConditionalOnEnabledHealthIndicator("lockable")
class Boot4LockDirectoryHealthConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lockableHealthIndicator")
	HealthIndicator lockableHealthIndicator(FileLockStore store) {
		return new LockDirectoryHealthIndicator(store);
	}

	/**
	 * {@code UP} when the lock directory exists, is a writable directory, owned by this
	 * process's user and writable by nobody else; {@code DOWN} with the reason otherwise.
	 */
	static class LockDirectoryHealthIndicator extends AbstractHealthIndicator {

		private final FileLockStore store;

		LockDirectoryHealthIndicator(FileLockStore store) {
			super("Lock directory health check failed");
			this.store = store;
		}

		@Override
		protected void doHealthCheck(Health.Builder builder) {
			LockDirectoryStatus status = this.store.checkDirectory();
			(status.isUsable() ? builder.up() : builder.down()).withDetails(status.details());
		}

	}

}
