package io.github.lockable.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockableConfigurationException;
import io.github.lockable.Lockable;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.observation.LockAcquisitionObservationConvention;
import io.github.lockable.observation.LockExecutionObservationConvention;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

/**
 * Applies the lock advice to every method annotated with {@link Lockable}, and checks every
 * such method once all singletons exist: a bad declaration fails startup.
 * <p>
 * Its {@link #setOrder(int) order} decides where the lock sits among other advice. The
 * default, just before {@code Ordered.LOWEST_PRECEDENCE}, puts the lock outside a
 * {@code @Transactional} advice at Spring's default order: the lock is taken before the
 * transaction begins and released after it commits or rolls back.
 */
class LockableAdvisor extends AbstractPointcutAdvisor
		implements BeanFactoryAware, EnvironmentAware, SmartInitializingSingleton {

	private final transient Pointcut pointcut;

	private final transient LockableMethods methods;

	private final transient LockableMethodInterceptor interceptor;

	private transient @Nullable IntSupplier orderSupplier;

	private transient Supplier<LockObservations.Settings> observations = () -> new LockObservations.Settings(
			ObservationRegistry.NOOP, null, null);

	/**
	 * Creates the advisor. Every collaborator is obtained on first use, so that creating the
	 * advisor, which happens while bean post-processors are still being registered, creates
	 * no other bean early.
	 * @param defaults the TTL, conflict policy and store-failure policy of a method whose
	 * annotation leaves them to the application
	 * @param keys the key rules, for static keys at startup and resolved keys per call
	 * @param lockManager the lock manager, so that the advisor can be created before the
	 * store and its connection
	 * @param continuations where a {@code Mono} or future-returning method continues once
	 * the store answered asynchronously
	 * @param renewals renews the locks of methods with {@code renew = true}
	 */
	LockableAdvisor(Supplier<LockDefaults> defaults, Supplier<LockKeys> keys, Supplier<LockManager> lockManager,
			Supplier<Executor> continuations, Supplier<LockRenewals> renewals) {
		SingletonSupplier<LockDefaults> lockDefaults = SingletonSupplier.of(defaults);
		LockableAttributeSource attributes = new LockableAttributeSource();
		this.pointcut = new LockablePointcut(attributes);
		this.methods = new LockableMethods(attributes, lockDefaults, SingletonSupplier.of(keys));
		this.interceptor = new LockableMethodInterceptor(this.methods, new LockFlow(lockManager,
				() -> lockDefaults.obtain().storeFailure(), continuations, renewals, () -> this.observations.get()));
	}

	/**
	 * Observes every call: the wait and acquire as {@code lockable.lock.acquisition}, the
	 * work under the lock as {@code lockable.lock.execution}. Without it, or with a registry
	 * that has no handler, nothing is observed and nothing is allocated per call.
	 * @param observations supplies the registry and conventions, asked on the first call
	 */
	void setObservations(Supplier<LockObservations.Settings> observations) {
		this.observations = observations;
	}

	/**
	 * Sets the order from a supplier asked when the order is first needed, when proxies are
	 * created, instead of when the advisor is.
	 * @param order supplies the order
	 */
	void setOrder(IntSupplier order) {
		this.orderSupplier = order;
	}

	@Override
	public int getOrder() {
		IntSupplier supplier = this.orderSupplier;
		if (supplier != null) {
			setOrder(supplier.getAsInt());
			this.orderSupplier = null;
		}
		return super.getOrder();
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
			this.methods.setBeanFactory(listable);
		}
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.methods.setEnvironment(environment);
	}

	/**
	 * Reads and checks every {@code @Lockable} method of every bean.
	 * @throws LockableConfigurationException listing every bad declaration
	 */
	@Override
	public void afterSingletonsInstantiated() {
		this.methods.inspectBeans();
	}

	/**
	 * How every {@code @Lockable} method read so far locks: all of them once the
	 * application has started, and those of beans created later once first called.
	 * @return the methods' descriptors, sorted by method
	 */
	public List<LockableMethodDescriptor> lockableMethods() {
		return this.methods.descriptors();
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

}
