package io.github.lockable.autoconfigure;

import java.util.List;

import io.micrometer.observation.ObservationRegistry;

import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.LockableConfigurationException;
import io.github.lockable.aop.LockableAdvice;
import io.github.lockable.core.DefaultLockTemplate;
import io.github.lockable.core.LockEventListener;
import io.github.lockable.core.LockFlow;
import io.github.lockable.core.LockKeys;
import io.github.lockable.core.LockHolders;
import io.github.lockable.core.LockManager;
import io.github.lockable.core.LockRenewals;
import io.github.lockable.core.LockMetrics;
import io.github.lockable.core.LockObservations;
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
 * {@code lockable.store}, the lock manager, and the advisor that runs annotated methods
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
	static LockKeys lockKeys(LockableProperties properties) {
		return new LockKeys(properties.getKeyPrefix(), properties.getMaxKeyLength());
	}

	@Bean
	@ConditionalOnMissingBean
	static UnknownLockableProperties unknownLockableProperties(Environment environment) {
		return new UnknownLockableProperties(environment);
	}

	@Bean
	@ConditionalOnMissingBean
	LockManager lockManager(ObjectProvider<LockStore> store, LockableProperties properties,
			ObjectProvider<LockMetrics> metrics, ObjectProvider<LockEventListener> listener, Environment environment,
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
		return new LockManager(lockStore, properties.getTtlWarningRatio(), metrics.getIfUnique(() -> LockMetrics.NONE),
				LockHolders.instance(environment.getProperty("spring.application.name")), listener.getIfUnique());
	}

	@Bean
	@ConditionalOnMissingBean
	LockRenewals lockRenewals() {
		return new LockRenewals();
	}

	/**
	 * The template runs on a flow of its own built from the advice's parts, so that its
	 * callers get the advice's log lines, meters, observations and outage throttle.
	 */
	@Bean
	@ConditionalOnMissingBean(LockTemplate.class)
	DefaultLockTemplate lockTemplate(ObjectProvider<LockManager> lockManager, LockKeys keys,
			ObjectProvider<LockRenewals> renewals, LockableProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquisitionObservationConvention> acquisitionConvention,
			ObjectProvider<LockExecutionObservationConvention> executionConvention, BeanFactory beanFactory) {
		LockFlow flow = new LockFlow(lockManager::getObject, properties::getStoreFailure,
				() -> ContinuationExecutors.from(beanFactory), renewals::getObject,
				() -> new LockObservations.Settings(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP),
						acquisitionConvention.getIfUnique(), executionConvention.getIfUnique()));
		return new DefaultLockTemplate(flow, keys, properties.getDefaultConflictPolicy());
	}

	/**
	 * The advisor is created while bean post-processors are being registered, so it takes
	 * every collaborator lazily: a bean it pulled in then would miss some post-processors,
	 * and Spring would warn about it at every start. The observation registry too, which
	 * Spring Boot configures with its handlers later: the advisor asks for it on the first
	 * call, and observes nothing without one.
	 */
	@Bean
	@ConditionalOnMissingBean(type = "io.github.lockable.aop.LockableAdvisor")
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static Advisor lockableAdvisor(ObjectProvider<LockableProperties> properties,
			ObjectProvider<LockKeys> keys, ObjectProvider<LockManager> lockManager,
			ObjectProvider<LockRenewals> renewals, ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquisitionObservationConvention> acquisitionConvention,
			ObjectProvider<LockExecutionObservationConvention> executionConvention, BeanFactory beanFactory) {
		return LockableAdvice.advisor(() -> properties.getObject().getDefaultTtl(),
				() -> properties.getObject().getDefaultConflictPolicy(), () -> properties.getObject().getStoreFailure(),
				() -> properties.getObject().getOrder(), keys::getObject, lockManager::getObject,
				() -> ContinuationExecutors.from(beanFactory), renewals::getObject,
				() -> observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP), acquisitionConvention::getIfUnique,
				executionConvention::getIfUnique);
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
				LockableAdvice.registerLostLockRollback(registry);
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
				LockableAdvice.registerValidationBeforeLock(registry);
			}

		}

	}

}
