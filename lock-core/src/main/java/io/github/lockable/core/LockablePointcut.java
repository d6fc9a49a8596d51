package io.github.lockable.core;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.StaticMethodMatcherPointcut;

/**
 * Matches the methods whose {@code @Lockable} the attribute source finds, as Spring's
 * {@code TransactionAttributeSourcePointcut} matches {@code @Transactional} ones: on the
 * method called or on the target class's own declaration of it.
 */
final class LockablePointcut extends StaticMethodMatcherPointcut {

	private final LockableAttributeSource attributes;

	LockablePointcut(LockableAttributeSource attributes) {
		this.attributes = attributes;
		setClassFilter(LockableAttributeSource::isCandidate);
	}

	@Override
	public boolean matches(Method method, @Nullable Class<?> targetClass) {
		return this.attributes.find(method, targetClass) != null;
	}

}
