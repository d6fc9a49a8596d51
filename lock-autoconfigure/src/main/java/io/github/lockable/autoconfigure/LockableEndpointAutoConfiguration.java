package io.github.lockable.autoconfigure;

import io.github.lockable.actuate.LockableEndpoint;
import io.github.lockable.aop.LockableAdvice;
import io.github.lockable.core.LockKeys;
import io.github.lockable.core.LockManager;
import io.github.lockable.core.LockMetrics;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of Lockable's Actuator support: the {@code lockable} endpoint, when
 * the application makes it available (exposes it), and the health of the store, under the
 * name {@code lockable}: the file store's lock directory, or what the Redis store's server
 * does to locks (eviction policy, role, scripts).
 */
@AutoConfiguration(after = LockableAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "lockable.enabled", matchIfMissing = true)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@Import(LockStoreHealthSelector.class)
public class LockableEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockManager.class)
	@ConditionalOnAvailableEndpoint
	LockableEndpoint lockableEndpoint(LockManager lockManager, LockKeys keys, ObjectProvider<Advisor> advisors,
			ObjectProvider<LockMetrics> metrics) {
		return new LockableEndpoint(lockManager, keys, LockableAdvice.lockableMethods(advisors),
				metrics.getIfUnique(() -> LockMetrics.NONE));
	}

}
