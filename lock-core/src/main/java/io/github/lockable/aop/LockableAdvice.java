package io.github.lockable.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.core.LockKeys;
import io.github.lockable.core.LockManager;
import io.github.lockable.core.LockRenewals;
import io.github.lockable.observation.LockAcquisitionObservationConvention;
import io.github.lockable.observation.LockExecutionObservationConvention;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * The one way into this package from Lockable's auto-configuration: it builds the advice's
 * parts, whose types stay package-private. Internal; no API.
 * <p>
 * No signature here names a type of an optional library: the auto-configuration loads
 * this class in applications without spring-tx or Bean Validation, and the parts that need
 * them are registered by their class, which is loaded only where they are.
 */
public final class LockableAdvice {

	private LockableAdvice() {
	}

	/**
	 * The advisor that runs {@code @Lockable} methods under a lock and checks their
	 * declarations once all singletons exist. Every collaborator is asked for on first use,
	 * so that creating the advisor, while bean post-processors are being registered,
	 * creates no other bean early.
	 * @param defaultTtl the TTL of a method whose annotation leaves it empty
	 * @param defaultConflictPolicy what {@link ConflictPolicy#DEFAULT} means; never
	 * {@code DEFAULT} itself
	 * @param storeFailure what a method does when the store does not answer
	 * @param order the advisor's order, asked when proxies are created
	 * @param keys the key rules
	 * @param lockManager the lock manager
	 * @param continuations where an asynchronous method continues once the store answered
	 * @param renewals renews the locks of methods with {@code renew = true}
	 * @param observationRegistry the registry the calls are observed in, asked on the first
	 * call
	 * @param acquisitionConvention the acquisition convention, or {@code null} for the
	 * default; asked on the first call
	 * @param executionConvention the execution convention, or {@code null} likewise
	 * @return the advisor
	 */
	public static Advisor advisor(Supplier<Duration> defaultTtl, Supplier<ConflictPolicy> defaultConflictPolicy,
			Supplier<StoreFailurePolicy> storeFailure, IntSupplier order, Supplier<LockKeys> keys,
			Supplier<LockManager> lockManager, Supplier<Executor> continuations, Supplier<LockRenewals> renewals,
			Supplier<ObservationRegistry> observationRegistry,
			Supplier<LockAcquisitionObservationConvention> acquisitionConvention,
			Supplier<LockExecutionObservationConvention> executionConvention) {
		LockableAdvisor advisor = new LockableAdvisor(defaultTtl, defaultConflictPolicy, storeFailure, keys,
				lockManager, continuations, renewals);
		advisor.setOrder(order);
		advisor.setObservationRegistry(observationRegistry);
		advisor.setObservationConventions(acquisitionConvention, executionConvention);
		return advisor;
	}

	/**
	 * How every {@code @Lockable} method read so far locks, from the application's
	 * Lockable advisor.
	 * @param advisors the application's advisors, asked at each call
	 * @return the methods' descriptors, sorted by method; none without a Lockable advisor
	 */
	public static Supplier<List<LockableMethodDescriptor>> lockableMethods(ObjectProvider<Advisor> advisors) {
		return () -> advisors.stream()
			.filter(LockableAdvisor.class::isInstance)
			.findFirst()
			.map((advisor) -> ((LockableAdvisor) advisor).lockableMethods())
			.orElse(List.of());
	}

	/**
	 * Registers the post-processor that moves method validation in front of the lock, as
	 * {@code validationBeforeLockPostProcessor} unless a bean of that name exists. By its
	 * class, as infrastructure, so that the auto-proxy creator skips it by its type before
	 * creating it (see {@link ValidationBeforeLockPostProcessor}). Needs Bean Validation.
	 * @param registry the registry
	 */
	public static void registerValidationBeforeLock(BeanDefinitionRegistry registry) {
		RootBeanDefinition definition = new RootBeanDefinition(ValidationBeforeLockPostProcessor.class);
		definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
		registerIfAbsent(registry, "validationBeforeLockPostProcessor", definition);
	}

	/**
	 * Registers the listener that fails the commit of a transaction begun inside a locked
	 * call whose lock was lost, as {@code lostLockRollback} unless a bean of that name
	 * exists; Spring Boot applies it to the transaction managers it configures. Needs
	 * spring-tx.
	 * @param registry the registry
	 */
	public static void registerLostLockRollback(BeanDefinitionRegistry registry) {
		registerIfAbsent(registry, "lostLockRollback", new RootBeanDefinition(LostLockRollback.class));
	}

	private static void registerIfAbsent(BeanDefinitionRegistry registry, String name, BeanDefinition definition) {
		if (!registry.containsBeanDefinition(name)) {
			registry.registerBeanDefinition(name, definition);
		}
	}

}
