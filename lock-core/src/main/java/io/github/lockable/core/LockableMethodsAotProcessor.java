package io.github.lockable.core;

import java.lang.reflect.Method;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.lockable.Lockable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Reflection hints for every {@link Lockable @Lockable} method of the application's beans,
 * found ahead of time by the attribute source that the startup check reads them with. At
 * run time Lockable reads each such method's annotation and parameter names
 * ({@code LockInvocation.argument(name, type)}), and the proxy invokes it reflectively; in
 * a native image all of that needs the method registered.
 */
final class LockableMethodsAotProcessor implements BeanFactoryInitializationAotProcessor {

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		List<Method> methods = new LockableAttributeSource().beans(beanFactory)
			.stream()
			.flatMap((bean) -> bean.methods().keySet().stream())
			.toList();
		if (methods.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> register(generationContext.getRuntimeHints(), methods);
	}

	private static void register(RuntimeHints hints, List<Method> methods) {
		for (Method method : methods) {
			hints.reflection().registerMethod(method, ExecutableMode.INVOKE);
		}
	}

}
