package io.github.lockable.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;
import io.github.lockable.core.LockKeys;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.framework.ProxyConfig;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodClassKey;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Reads and checks every {@code @Lockable} method once. At startup it inspects every bean
 * class and reports all bad declarations in one exception; during calls it hands out the
 * cached definition for a method and target class.
 */
final class LockableMethods {

	private static final String[] STREAMING_TYPES = { "org.reactivestreams.Publisher",
			"org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter",
			"org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody",
			"kotlinx.coroutines.flow.Flow" };

	private final SingletonSupplier<LockDefaults> defaults;

	private final SingletonSupplier<LockKeys> keys;

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	/** Definitions by the method as declared on the user class. */
	private final Map<Method, LockableMethod> byMethod = new ConcurrentHashMap<>();

	/** Definitions by the method a proxy reports and the target's class: the per-call lookup. */
	private final Map<MethodClassKey, LockableMethod> byCall = new ConcurrentHashMap<>();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private @Nullable Environment environment;

	LockableMethods(SingletonSupplier<LockDefaults> defaults, SingletonSupplier<LockKeys> keys) {
		this.defaults = defaults;
		this.keys = keys;
	}

	void setBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	/**
	 * Reads every {@code @Lockable} method of every bean.
	 * @throws LockableConfigurationException listing every bad declaration
	 */
	void inspectBeans() {
		ConfigurableListableBeanFactory factory = this.beanFactory;
		if (factory == null) {
			return;
		}
		List<String> problems = new ArrayList<>();
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
			if (!inspected.add(userClass) || !AnnotationUtils.isCandidateClass(userClass, Lockable.class)) {
				continue;
			}
			Map<Method, Lockable> annotated = MethodIntrospector.selectMethods(userClass,
					(MethodIntrospector.MetadataLookup<Lockable>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, Lockable.class));
			boolean interfaceProxy = isInterfaceProxied(factory, beanName, userClass);
			annotated.forEach((method, annotation) -> {
				String unreachable = unreachable(method, interfaceProxy);
				if (unreachable != null) {
					problems.add(describe(method, userClass) + ": " + unreachable);
				}
				if (!this.byMethod.containsKey(method)) {
					LockableMethod definition = define(method, userClass, annotation, problems);
					if (definition != null && unreachable == null) {
						this.byMethod.put(method, definition);
					}
				}
			});
			SelfInvocations.warnAbout(userClass, annotated.keySet());
		}
		if (!problems.isEmpty()) {
			throw new LockableConfigurationException(problems);
		}
	}

	/**
	 * Whether the bean's calls pass an interface (JDK) proxy, which also intercepts a final
	 * method that implements an interface method. The bean's proxy decides when it exists;
	 * for a bean not created yet, the auto-proxy creator's mode and the bean's interfaces.
	 */
	private static boolean isInterfaceProxied(ConfigurableListableBeanFactory factory, String beanName,
			Class<?> userClass) {
		Object bean = factory.containsSingleton(beanName) ? factory.getSingleton(beanName) : null;
		if (bean != null && AopUtils.isAopProxy(bean)) {
			return AopUtils.isJdkDynamicProxy(bean);
		}
		Object creator = factory.containsSingleton(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME)
				? factory.getSingleton(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME) : null;
		return creator instanceof ProxyConfig config && !config.isProxyTargetClass()
				&& !(factory.containsBeanDefinition(beanName) && AutoProxyUtils.shouldProxyTargetClass(factory, beanName))
				&& ClassUtils.getAllInterfacesForClass(userClass).length > 0;
	}

	/**
	 * Why no proxy intercepts calls of the method, so that it would run unlocked; or
	 * {@code null} when the proxy does.
	 */
	private static @Nullable String unreachable(Method method, boolean interfaceProxy) {
		int modifiers = method.getModifiers();
		if (Modifier.isStatic(modifiers)) {
			return "is static, and no proxy intercepts a static method, so it would run without the lock; make it an "
					+ "instance method and call it through the bean";
		}
		if (Modifier.isPrivate(modifiers)) {
			return "is private, and no proxy intercepts a private method, so it would run without the lock; make it "
					+ "public and call it through the bean";
		}
		if (Modifier.isFinal(modifiers) && !interfaceProxy) {
			return "is final, and a class (CGLIB) proxy cannot override a final method, so it would run without the "
					+ "lock; remove final (in Kotlin: make it open)";
		}
		return null;
	}

	/**
	 * The methods read so far, at startup and since, sorted by their description.
	 * @return their descriptors
	 */
	List<LockableMethodDescriptor> descriptors() {
		return this.byMethod.values()
			.stream()
			.map(LockableMethod::descriptor)
			.sorted(Comparator.comparing(LockableMethodDescriptor::method))
			.toList();
	}

	/**
	 * The definition for a call.
	 * @param method the method the proxy reports
	 * @param target the target object
	 * @return the definition
	 * @throws LockableConfigurationException if the method was not seen at startup and its
	 * declaration is bad
	 */
	LockableMethod get(Method method, @Nullable Object target) {
		Class<?> targetClass = (target != null) ? target.getClass() : method.getDeclaringClass();
		MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
		LockableMethod definition = this.byCall.get(cacheKey);
		if (definition != null) {
			return definition;
		}
		return this.byCall.computeIfAbsent(cacheKey, (key) -> lookUp(method, targetClass));
	}

	private LockableMethod lookUp(Method method, Class<?> targetClass) {
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		Method specific = ClassUtils.getMostSpecificMethod(method, userClass);
		LockableMethod known = this.byMethod.get(specific);
		if (known == null) {
			known = this.byMethod.get(BridgeMethodResolver.findBridgedMethod(specific));
		}
		if (known != null) {
			return known;
		}
		// A bean created after startup (a prototype, a lazy bean): check it now.
		Lockable annotation = AnnotatedElementUtils.findMergedAnnotation(specific, Lockable.class);
		if (annotation == null) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, Lockable.class);
		}
		if (annotation == null) {
			throw new IllegalStateException("No @Lockable on " + method);
		}
		List<String> problems = new ArrayList<>();
		LockableMethod definition = define(specific, userClass, annotation, problems);
		if (definition == null) {
			throw new LockableConfigurationException(problems);
		}
		LockableMethod raced = this.byMethod.putIfAbsent(specific, definition);
		return (raced != null) ? raced : definition;
	}

	private @Nullable LockableMethod define(Method method, Class<?> targetClass, Lockable annotation,
			List<String> problems) {
		String description = describe(method, targetClass);
		int problemsBefore = problems.size();
		boolean hasKey = !annotation.key().isEmpty();
		boolean hasResolver = !annotation.resolver().isEmpty();
		String staticKey = null;
		LockKeyResolver resolver = null;
		if (hasKey == hasResolver) {
			problems.add(description + ": set exactly one of key and resolver ("
					+ (hasKey ? "both are set" : "neither is set") + ")");
		}
		else if (hasKey) {
			String problem = this.keys.obtain().problem(annotation.key());
			if (problem != null) {
				problems.add(description + ": key '" + annotation.key() + "' " + problem);
			}
			else {
				staticKey = this.keys.obtain().withPrefix(annotation.key());
			}
		}
		else {
			resolver = resolver(annotation.resolver(), description, problems);
		}
		Duration ttl = annotation.ttl().isEmpty() ? this.defaults.obtain().ttl()
				: duration("ttl", annotation.ttl(), 1, description, problems);
		Duration waitTime = annotation.waitTime().isEmpty() ? Duration.ZERO
				: duration("waitTime", annotation.waitTime(), 0, description, problems);
		ConflictPolicy policy = (annotation.conflictPolicy() != ConflictPolicy.DEFAULT) ? annotation.conflictPolicy()
				: this.defaults.obtain().conflictPolicy();
		checkReturnType(method, policy, description, problems);
		if (problems.size() > problemsBefore) {
			return null;
		}
		return new LockableMethod(method, targetClass, description, staticKey, resolver, annotation.resolver(), this.keys.obtain(), ttl,
				waitTime, annotation.renew(), policy, ReturnKind.of(method), this.parameterNames.getParameterNames(method));
	}

	private @Nullable LockKeyResolver resolver(String name, String description, List<String> problems) {
		ConfigurableListableBeanFactory factory = this.beanFactory;
		if (factory != null && factory.containsBean(name) && factory.isTypeMatch(name, LockKeyResolver.class)) {
			return factory.getBean(name, LockKeyResolver.class);
		}
		String known = (factory != null) ? Arrays.toString(factory.getBeanNamesForType(LockKeyResolver.class))
				: "[]";
		if (factory != null && factory.containsBean(name)) {
			problems.add(description + ": bean '" + name + "' is a " + factory.getType(name)
					+ ", not a LockKeyResolver; LockKeyResolver beans: " + known);
		}
		else {
			problems.add(description + ": no LockKeyResolver bean named '" + name + "'; LockKeyResolver beans: "
					+ known);
		}
		return null;
	}

	private @Nullable Duration duration(String attribute, String declared, long minimumMillis, String description,
			List<String> problems) {
		String value;
		try {
			value = (this.environment != null) ? this.environment.resolveRequiredPlaceholders(declared) : declared;
		}
		catch (IllegalArgumentException ex) {
			problems.add(description + ": " + attribute + " '" + declared + "' cannot be resolved: " + ex.getMessage());
			return null;
		}
		Duration duration;
		try {
			duration = DurationStyle.detectAndParse(value.trim());
		}
		catch (IllegalArgumentException ex) {
			problems.add(description + ": " + attribute + " '" + declared
					+ "' is not a duration such as 10s, 500ms or PT1M");
			return null;
		}
		if (duration.isNegative() || duration.toMillis() < minimumMillis) {
			problems.add(description + ": " + attribute + " '" + declared + "' must be "
					+ ((minimumMillis > 0) ? "positive (at least 1ms)" : "zero or positive"));
			return null;
		}
		return duration;
	}

	private void checkReturnType(Method method, ConflictPolicy policy, String description, List<String> problems) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			checkSuspendingFunction(method, policy, description, problems);
			return;
		}
		Class<?> returnType = method.getReturnType();
		String streaming = streamingType(method);
		if (streaming != null) {
			problems.add(description + ": returns " + streaming + ", a stream that would hold the lock for its "
					+ "whole life; lock the short command that starts the stream in a service method (or return a Mono) "
					+ "and keep the stream itself outside the lock");
		}
		else if (Future.class.isAssignableFrom(returnType) && returnType != CompletableFuture.class
				|| CompletionStage.class.isAssignableFrom(returnType) && returnType != CompletionStage.class
						&& returnType != CompletableFuture.class) {
			problems.add(description + ": returns " + returnType.getName() + "; a lock is held across asynchronous "
					+ "work only for CompletableFuture, CompletionStage and Mono: declare one of those");
		}
		if (policy == ConflictPolicy.SKIP && returnType.isPrimitive() && returnType != void.class) {
			problems.add(description + ": conflictPolicy SKIP needs a return value for a skipped call, but the "
					+ "method returns " + returnType.getName() + "; return void, a wrapper type or Optional, or choose "
					+ "another policy");
		}
	}

	/**
	 * Spring's proxies run a suspend function as a Mono, which needs
	 * kotlinx-coroutines-reactor; its declared Java return type is Object, so its Kotlin
	 * return type decides.
	 */
	private static void checkSuspendingFunction(Method method, ConflictPolicy policy, String description,
			List<String> problems) {
		MethodParameter returned = new MethodParameter(method, -1);
		Class<?> returnType = returned.getParameterType();
		if (isStreaming(returnType)) {
			problems.add(description + ": is a suspend function returning " + returnType.getName()
					+ ", a stream that would hold the lock for its whole life; lock a suspend function that returns "
					+ "a single value and keep the stream outside the lock");
		}
		else if (!ReturnKind.COROUTINES_REACTOR_PRESENT) {
			problems.add(description + ": is a suspend function; holding a lock across it needs "
					+ "org.jetbrains.kotlinx:kotlinx-coroutines-reactor on the class path");
		}
		else if (policy == ConflictPolicy.SKIP && !returned.isOptional() && returnType != void.class
				&& !returnType.getName().equals("kotlin.Unit")) {
			problems.add(description + ": conflictPolicy SKIP returns null for a skipped call, but the suspend "
					+ "function returns the non-null type " + returnType.getName() + "; make it nullable, return Unit, "
					+ "or choose another policy");
		}
	}

	private static @Nullable String streamingType(Method method) {
		Class<?> returnType = method.getReturnType();
		if (ReturnKind.of(method) == ReturnKind.MONO) {
			return null;
		}
		if (isStreaming(returnType)) {
			return returnType.getName();
		}
		if (returnType.getName().equals("org.springframework.http.ResponseEntity")) {
			Class<?> body = ResolvableType.forMethodReturnType(method).getGeneric(0).resolve();
			if (body != null && isStreaming(body)) {
				return "ResponseEntity<" + body.getName() + ">";
			}
		}
		return null;
	}

	private static boolean isStreaming(Class<?> type) {
		for (String streamingType : STREAMING_TYPES) {
			Class<?> candidate = loadIfPresent(streamingType, type.getClassLoader());
			if (candidate != null && candidate.isAssignableFrom(type)) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable Class<?> loadIfPresent(String className, @Nullable ClassLoader classLoader) {
		try {
			return ClassUtils.forName(className, classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

	private static String describe(Method method, Class<?> targetClass) {
		return ClassUtils.getShortName(targetClass) + "." + method.getName() + Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", ", "(", ")"));
	}

}
