package io.github.lockable.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.validation.beanvalidation.MethodValidationInterceptor;
import org.springframework.validation.beanvalidation.MethodValidationPostProcessor;

/**
 * Moves method validation of a {@code @Validated} bean in front of its lock, so that an
 * invalid call gets its validation error without taking or waiting for the lock (and, with
 * the lock at its default order, before any transaction begins).
 * <p>
 * {@link MethodValidationPostProcessor} appends its advisor to the end of the proxy that
 * auto-proxying made, innermost, behind the lock. This post-processor moves each such
 * advisor found behind the {@link LockableAdvisor} to just in front of it; every other
 * advisor keeps its place, and a bean without the lock advice is left as it is. A frozen
 * proxy cannot change and is left as it is too.
 * <p>
 * It must run after the {@code MethodValidationPostProcessor}, and so is not
 * {@link org.springframework.core.Ordered Ordered}: Spring applies post-processors without
 * an order after every ordered one, and that one has an order. It is registered by its
 * class ({@link LockableAdvice#registerValidationBeforeLock}), so that creating it creates no
 * other bean: as AOP infrastructure ({@link AopInfrastructureBean}) it is skipped by the
 * auto-proxy creator, which would otherwise look up, and so create, every advisor and its
 * dependencies before all post-processors are in place.
 */
final class ValidationBeforeLockPostProcessor implements BeanPostProcessor, AopInfrastructureBean {

	// The log category of the package this class came from, which operators' logging configuration names
	private static final Logger logger = LoggerFactory.getLogger("io.github.lockable.aop.ValidationBeforeLockPostProcessor");

	/**
	 * Creates the post-processor; it has no settings.
	 */
	public ValidationBeforeLockPostProcessor() {
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof Advised advised) {
			moveValidationBeforeLock(advised, beanName);
		}
		return bean;
	}

	private static void moveValidationBeforeLock(Advised advised, String beanName) {
		Advisor[] advisors = advised.getAdvisors();
		int lock = indexOfLock(advisors);
		if (lock < 0 || !hasValidationAfter(advisors, lock)) {
			return;
		}
		if (advised.isFrozen()) {
			logger.debug("Bean '{}' has a frozen proxy: its arguments are validated inside the lock", beanName);
			return;
		}
		int target = lock;
		for (int i = lock + 1; i < advisors.length; i++) {
			if (isValidation(advisors[i])) {
				advised.removeAdvisor(advisors[i]);
				advised.addAdvisor(target++, advisors[i]);
			}
		}
	}

	private static int indexOfLock(Advisor[] advisors) {
		for (int i = 0; i < advisors.length; i++) {
			if (advisors[i] instanceof LockableAdvisor) {
				return i;
			}
		}
		return -1;
	}

	private static boolean hasValidationAfter(Advisor[] advisors, int lock) {
		for (int i = lock + 1; i < advisors.length; i++) {
			if (isValidation(advisors[i])) {
				return true;
			}
		}
		return false;
	}

	private static boolean isValidation(Advisor advisor) {
		return advisor.getAdvice() instanceof MethodValidationInterceptor;
	}

}
