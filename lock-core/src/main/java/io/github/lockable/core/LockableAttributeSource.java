package io.github.lockable.core;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import io.github.lockable.Lockable;

import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodClassKey;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * The one place that reads {@code @Lockable}, as Spring's
 * {@code AbstractFallbackTransactionAttributeSource} reads {@code @Transactional}: the
 * annotation of a method as called on a target class, looked up on the most specific
 * method (the target class's own, also when the call names an interface method) and then
 * on the method called, and cached per method and class, absence included. The pointcut,
 * the startup check, the per-call lookup and the ahead-of-time hints all read through it.
 */
final class LockableAttributeSource {

	/** Caches that a method has no {@code @Lockable}: a map cannot hold null. */
	private static final Object NONE = new Object();

	private final Map<MethodClassKey, Object> cache = new ConcurrentHashMap<>(1024);

	/**
	 * The {@code @Lockable} of a method as called on a class.
	 * @param method the method called, possibly declared by an interface or a superclass
	 * @param targetClass the class of the target, or {@code null} when unknown
	 * @return the annotation, or {@code null} when the method is not locked
	 */
	@Nullable Lockable find(Method method, @Nullable Class<?> targetClass) {
		if (method.getDeclaringClass() == Object.class) {
			return null;
		}
		MethodClassKey key = new MethodClassKey(method, targetClass);
		Object cached = this.cache.get(key);
		if (cached == null) {
			Lockable found = read(method, targetClass);
			cached = (found != null) ? found : NONE;
			this.cache.put(key, cached);
		}
		return (cached != NONE) ? (Lockable) cached : null;
	}

	private static @Nullable Lockable read(Method method, @Nullable Class<?> targetClass) {
		Method specific = specificMethod(method, targetClass);
		Lockable annotation = AnnotatedElementUtils.findMergedAnnotation(specific, Lockable.class);
		if (annotation == null && specific != method) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, Lockable.class);
		}
		return annotation;
	}

	/**
	 * The method that runs when the given one is called on the class: the class's own
	 * declaration, bridges resolved; under it the startup check keeps its definition.
	 */
	static Method specificMethod(Method method, @Nullable Class<?> targetClass) {
		if (targetClass != null && Proxy.isProxyClass(targetClass)) {
			return method;
		}
		return AopUtils.getMostSpecificMethod(method, targetClass);
	}

	/**
	 * Whether the class can declare a {@code @Lockable} method at all: the cheap test that
	 * spares the method lookup for classes such as the JDK's.
	 */
	static boolean isCandidate(Class<?> type) {
		return AnnotationUtils.isCandidateClass(type, Lockable.class);
	}

	/**
	 * Every {@code @Lockable} method of a class, as declared by the class or inherited.
	 * @param userClass the user class (no CGLIB subclass)
	 * @return the annotations by the class's most specific methods
	 */
	Map<Method, Lockable> methodsOf(Class<?> userClass) {
		if (!isCandidate(userClass)) {
			return Map.of();
		}
		return MethodIntrospector.selectMethods(userClass,
				(MethodIntrospector.MetadataLookup<Lockable>) (method) -> find(method, userClass));
	}

	/**
	 * The beans whose class declares a {@code @Lockable} method, one per user class: what
	 * the startup check inspects and what the ahead-of-time hints register. It creates no
	 * bean: a {@code FactoryBean} whose product's type is unknown without creating it counts
	 * as itself, as {@code getBeanNamesForType} without eager initialization has it.
	 * @param factory the bean factory
	 * @return the beans, in the factory's order
	 */
	List<LockableBean> beans(ConfigurableListableBeanFactory factory) {
		List<LockableBean> beans = new ArrayList<>();
		Set<Class<?>> inspected = new HashSet<>();
		for (String beanName : factory.getBeanNamesForType(Object.class, true, false)) {
			if (ScopedProxyUtils.isScopedTarget(beanName)) {
				continue;
			}
			Class<?> type;
			try {
				type = AutoProxyUtils.determineTargetClass(factory, beanName);
			}
			catch (RuntimeException ex) {
				// An unresolvable type cannot declare a method we could advise.
				continue;
			}
			if (type == null) {
				continue;
			}
			Class<?> userClass = ClassUtils.getUserClass(type);
			if (!inspected.add(userClass)) {
				continue;
			}
			Map<Method, Lockable> methods = methodsOf(userClass);
			if (!methods.isEmpty()) {
				beans.add(new LockableBean(beanName, userClass, methods));
			}
		}
		return beans;
	}

	/**
	 * A bean with {@code @Lockable} methods.
	 * @param name the bean's name
	 * @param userClass its user class
	 * @param methods its {@code @Lockable} methods by the class's most specific methods
	 */
	record LockableBean(String name, Class<?> userClass, Map<Method, Lockable> methods) {

	}

}
