package io.github.lockable.autoconfigure;

import io.github.lockable.core.LockableCore;
import io.github.lockable.core.LockableEndpoint;

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
	@ConditionalOnBean(LockableCore.class)
	@ConditionalOnAvailableEndpoint
	LockableEndpoint lockableEndpoint(LockableCore core, ObjectProvider<Advisor> advisors) {
		return new LockableEndpoint(core, advisors);
	}

}
