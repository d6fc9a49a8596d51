package io.github.lockable.aop;

import java.util.function.Supplier;

import org.aopalliance.aop.Advice;

import io.github.lockable.Lockable;
import io.github.lockable.core.LockKeys;
import io.github.lockable.core.LockManager;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Applies the lock advice to every method annotated with {@link Lockable}, and checks every
 * such method once all singletons exist: a bad declaration fails startup.
 * <p>
 * Its {@link #setOrder(int) order} decides where the lock sits among other advice. The
 * default, just before {@code Ordered.LOWEST_PRECEDENCE}, puts the lock outside a
 * {@code @Transactional} advice at Spring's default order: the lock is taken before the
 * transaction begins and released after it commits or rolls back.
 */
public class LockableAdvisor extends AbstractPointcutAdvisor
		implements BeanFactoryAware, EnvironmentAware, SmartInitializingSingleton {

	private final transient Pointcut pointcut = new AnnotationMatchingPointcut(null, Lockable.class, true);

	private final transient LockableMethods methods;

	private final transient LockableMethodInterceptor interceptor;

	/**
	 * Creates the advisor.
	 * @param defaults what an annotation leaves empty, and the store failure policy
	 * @param keys the key rules, for static keys at startup and resolved keys per call
	 * @param lockManager supplies the lock manager on first use, so that the advisor can be
	 * created before the store and its connection
	 */
	public LockableAdvisor(LockDefaults defaults, LockKeys keys, Supplier<LockManager> lockManager) {
		this.methods = new LockableMethods(defaults, keys);
		this.interceptor = new LockableMethodInterceptor(this.methods, lockManager, defaults.storeFailure());
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

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

}
