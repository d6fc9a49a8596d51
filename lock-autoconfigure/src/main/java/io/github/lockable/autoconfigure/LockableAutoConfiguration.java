package io.github.lockable.autoconfigure;

import java.util.List;

import io.micrometer.observation.ObservationRegistry;

import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.LockableConfigurationException;
import io.github.lockable.core.LockableCore;
import io.github.lockable.observation.LockAcquisitionObservationConvention;
import io.github.lockable.observation.LockExecutionObservationConvention;
import io.github.lockable.store.LockStore;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Auto-configuration of {@link Lockable @Lockable}: the lock store chosen by
 * {@code lockable.store}, the core with the template, and the advisor that runs annotated methods
 * under a lock. Runs after Spring Boot's Redis and DataSource auto-configurations, whose
 * {@code RedisConnectionFactory} and {@code DataSource} the Redis and JDBC stores use.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "lockable.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LockableProperties.class)
@Import({ LockableProxyRegistrar.class, RedisLockStoreConfiguration.class, FileLockStoreConfiguration.class,
		MemoryLockStoreConfiguration.class, JdbcLockStoreConfiguration.class })
public class LockableAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	static UnknownLockableProperties unknownLockableProperties(Environment environment) {
		return new UnknownLockableProperties(environment);
	}

	@Bean
	@ConditionalOnMissingBean
	LockableCore lockableCore(ObjectProvider<LockStore> store, LockableProperties properties,
			ObjectProvider<LockableCore.Meters> meters, ObjectProvider<LockableCore.EventListener> listener,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquisitionObservationConvention> acquisitionConvention,
			ObjectProvider<LockExecutionObservationConvention> executionConvention, Environment environment,
			BeanFactory beanFactory) {
		LockStore lockStore = store.getIfUnique();
		if (lockStore == null) {
			long stores = store.stream().count();
			if (stores > 1) {
				throw new LockableConfigurationException(
						List.of("there are " + stores + " LockStore beans; mark the one to use @Primary"),
						"Mark one LockStore bean @Primary, or define only one.");
			}
			throw MissingLockStore.failure(properties.getStore(),
					(beanFactory instanceof ConfigurableListableBeanFactory factory) ? factory : null);
		}
		return LockableCore.builder(lockStore)
			.keyPrefix(properties.getKeyPrefix())
			.maxKeyLength(properties.getMaxKeyLength())
			.ttlWarningRatio(properties.getTtlWarningRatio())
			.defaultTtl(properties.getDefaultTtl())
			.defaultConflictPolicy(properties.getDefaultConflictPolicy())
			.storeFailure(properties.getStoreFailure())
			.applicationName(environment.getProperty("spring.application.name"))
			.continuations(() -> ContinuationExecutors.from(beanFactory))
			.observations(() -> observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP),
					acquisitionConvention::getIfUnique, executionConvention::getIfUnique)
			.meters(meters.getIfUnique())
			.listener(listener.getIfUnique())
			.build();
	}

	/**
	 * The template runs on a flow of its own built from the advice's parts, so that its
	 * callers get the advice's log lines, meters, observations and outage throttle.
	 */
	@Bean
	@ConditionalOnMissingBean
	LockTemplate lockTemplate(LockableCore core) {
		return core.template();
	}

	/**
	 * The advisor is created while bean post-processors are being registered, so it takes
	 * the core lazily: a bean it pulled in then would miss some post-processors, and Spring
	 * would warn about it at every start. The observation registry too, which Spring Boot
	 * configures with its handlers later: the advisor asks for it on the first call, and
	 * observes nothing without one.
	 */
	@Bean
	@ConditionalOnMissingBean(type = "io.github.lockable.core.LockableAdvisor")
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static Advisor lockableAdvisor(ObjectProvider<LockableCore> core, ObjectProvider<LockableProperties> properties) {
		return LockableCore.advisor(core::getObject, () -> properties.getObject().getOrder());
	}

	/**
	 * Spring Boot applies {@code TransactionExecutionListener} beans to the transaction
	 * managers it configures. In a class of its own: the listener implements a spring-tx
	 * interface, which an application without spring-tx cannot load.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.transaction.TransactionExecutionListener")
	@ConditionalOnBooleanProperty(name = "lockable.rollback-on-lost-lock", matchIfMissing = true)
	@Import(LostLockRollbackConfiguration.Registrar.class)
	static class LostLockRollbackConfiguration {

		static class Registrar implements ImportBeanDefinitionRegistrar {

			@Override
			public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata,
					BeanDefinitionRegistry registry) {
				LockableCore.registerLostLockRollback(registry);
			}

		}

	}

	/**
	 * In a class of its own, for an application without Bean Validation. The post-processor
	 * is registered by its class rather than from a bean method, whose return type would
	 * hide from the auto-proxy creator that it is AOP infrastructure.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.springframework.validation.beanvalidation.MethodValidationInterceptor",
			"jakarta.validation.executable.ExecutableValidator" })
	@Import(ValidationBeforeLockConfiguration.Registrar.class)
	static class ValidationBeforeLockConfiguration {

		static class Registrar implements ImportBeanDefinitionRegistrar {

			@Override
			public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata,
					BeanDefinitionRegistry registry) {
				LockableCore.registerValidationBeforeLock(registry);
			}

		}

	}

}
