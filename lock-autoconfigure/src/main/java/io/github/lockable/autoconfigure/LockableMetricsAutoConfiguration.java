package io.github.lockable.autoconfigure;

import java.util.Locale;

import io.micrometer.core.instrument.MeterRegistry;

import io.github.lockable.core.LockableCore;
import io.github.lockable.store.LockStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of lock metrics on Micrometer, when the application has a
 * {@link MeterRegistry}.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "lockable.enabled", matchIfMissing = true)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
public class LockableMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockableCore.Meters lockableMeters(MeterRegistry registry, ObjectProvider<LockStore> store,
			LockableProperties properties) {
		LockStore lockStore = store.getIfUnique();
		String storeName = (lockStore != null) ? lockStore.name() : properties.getStore().name().toLowerCase(Locale.ROOT);
		return LockableCore.Meters.micrometer(registry, storeName);
	}

}
