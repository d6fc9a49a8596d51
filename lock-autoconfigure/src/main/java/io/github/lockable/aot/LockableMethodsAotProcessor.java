package io.github.lockable.aot;

import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.lockable.Lockable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Reflection hints for every {@link Lockable @Lockable} method of the application's beans,
 * found ahead of time. At run time Lockable reads each such method's annotation and
 * parameter names ({@code LockInvocation.argument(name, type)}), and the proxy invokes it
 * reflectively; in a native image all of that needs the method registered.
 */
final class LockableMethodsAotProcessor implements BeanFactoryInitializationAotProcessor {

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		Set<Method> methods = new LinkedHashSet<>();
		Set<Class<?>> inspected = new LinkedHashSet<>();
		for (String beanName : beanFactory.getBeanDefinitionNames()) {
			Class<?> type = beanFactory.getType(beanName, false);
			if (type == null) {
				continue;
			}
			Class<?> userClass = ClassUtils.getUserClass(type);
			if (inspected.add(userClass) && AnnotationUtils.isCandidateClass(userClass, Lockable.class)) {
				methods.addAll(MethodIntrospector.selectMethods(userClass,
						(MethodIntrospector.MetadataLookup<Lockable>) (method) -> AnnotatedElementUtils
							.findMergedAnnotation(method, Lockable.class))
					.keySet());
			}
		}
		if (methods.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> register(generationContext.getRuntimeHints(), methods);
	}

	private static void register(RuntimeHints hints, Set<Method> methods) {
		for (Method method : methods) {
			hints.reflection().registerMethod(method, ExecutableMode.INVOKE);
		}
	}

}
