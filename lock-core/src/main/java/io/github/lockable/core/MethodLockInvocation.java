package io.github.lockable.core;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.lockable.LockInvocation;

import org.springframework.util.ClassUtils;

/**
 * A call as a resolver sees it. Built per call, cheaply: parameter names come from the
 * method's cached definition.
 */
final class MethodLockInvocation implements LockInvocation {

	private final LockableMethod definition;

	private final Object target;

	private final @Nullable Object[] arguments;

	MethodLockInvocation(LockableMethod definition, Object target, @Nullable Object[] arguments) {
		this.definition = definition;
		this.target = target;
		this.arguments = arguments;
	}

	@Override
	public Method method() {
		return this.definition.method();
	}

	@Override
	public Object target() {
		return this.target;
	}

	@Override
	public List<@Nullable Object> arguments() {
		return Collections.unmodifiableList(Arrays.asList(this.arguments));
	}

	@Override
	public <T> @Nullable T argument(String parameterName, Class<T> type) {
		String[] names = this.definition.parameterNames();
		if (names == null) {
			throw new IllegalArgumentException("Parameter names of " + this.definition.description()
					+ " are not in its class file; to use argument(\"" + parameterName + "\", ...), "
					+ ArgumentNames.COMPILE_WITH_PARAMETERS + "; or use arguments()");
		}
		for (int i = 0; i < names.length; i++) {
			if (names[i].equals(parameterName)) {
				Object value = this.arguments[i];
				if (value != null && !ClassUtils.resolvePrimitiveIfNecessary(type).isInstance(value)) {
					throw new IllegalArgumentException("Parameter '" + parameterName + "' of "
							+ this.definition.description() + " is a " + value.getClass().getName() + ", not a "
							+ type.getName());
				}
				@SuppressWarnings("unchecked")
				T argument = (T) value;
				return argument;
			}
		}
		throw new IllegalArgumentException("No parameter '" + parameterName + "' in "
				+ this.definition.description() + "; its parameters are " + Arrays.toString(names));
	}

}
