package io.github.lockable.core;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;
import io.github.lockable.core.LockableAttributeSource.LockableBean;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Reads and checks every {@code @Lockable} method once. At startup it inspects every bean
 * class and reports all bad declarations in one exception; during calls it hands out the
 * cached definition for a method and target class.
 */
final class LockableMethods {

	private static final String DECLARATIONS_ACTION = "Fix each @Lockable declaration listed above.";

	private static final String PARAMETER_NAMES_MISSING = " was compiled without parameter names (-parameters)";

	private final LockableAttributeSource attributes;

	private final SingletonSupplier<LockDefaults> defaults;

	private final SingletonSupplier<LockKeys> keys;

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	/** Definitions by the method as declared on the user class. */
	private final Map<Method, LockableMethod> byMethod = new ConcurrentHashMap<>();

	/** Definitions by the method a proxy reports and the target's class: the per-call lookup. */
	private final Map<MethodClassKey, LockableMethod> byCall = new ConcurrentHashMap<>();

	/**
	 * Definitions by the method a proxy reports, for the first target class it was called
	 * on: the per-call lookup, by the method alone, so that no key object is made per call.
	 * Another target class of the same method (a second bean of the class, a subclass) is
	 * looked up in {@link #byCall}.
	 */
	private final Map<Method, Bound> byProxyMethod = new ConcurrentHashMap<>();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private @Nullable Environment environment;

	LockableMethods(LockableAttributeSource attributes, SingletonSupplier<LockDefaults> defaults,
			SingletonSupplier<LockKeys> keys) {
		this.attributes = attributes;
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
		for (LockableBean bean : this.attributes.beans(factory)) {
			Class<?> userClass = bean.userClass();
			boolean interfaceProxy = UnreachableMethods.isInterfaceProxied(factory, bean.name(), userClass);
			bean.methods().forEach((method, annotation) -> {
				String unreachable = UnreachableMethods.why(method, interfaceProxy);
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
			SelfInvocations.warnAbout(userClass, bean.methods().keySet());
		}
		if (!problems.isEmpty()) {
			throw failure(problems);
		}
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
		Bound bound = this.byProxyMethod.get(method);
		if (bound != null && bound.targetClass() == targetClass) {
			return bound.definition();
		}
		MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
		LockableMethod definition = this.byCall.get(cacheKey);
		if (definition == null) {
			definition = this.byCall.computeIfAbsent(cacheKey, (key) -> lookUp(method, targetClass));
		}
		if (bound == null) {
			this.byProxyMethod.putIfAbsent(method, new Bound(targetClass, definition));
		}
		return definition;
	}

	/** The definition of a method for one target class. */
	private record Bound(Class<?> targetClass, LockableMethod definition) {
	}

	private LockableMethod lookUp(Method method, Class<?> targetClass) {
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		Method specific = LockableAttributeSource.specificMethod(method, userClass);
		LockableMethod known = this.byMethod.get(specific);
		if (known != null) {
			return known;
		}
		// A bean created after startup (a prototype, a lazy bean): check it now.
		Lockable annotation = this.attributes.find(method, userClass);
		if (annotation == null) {
			throw new IllegalStateException("No @Lockable on " + method);
		}
		List<String> problems = new ArrayList<>();
		LockableMethod definition = define(specific, userClass, annotation, problems);
		if (definition == null) {
			throw failure(problems);
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
		ReturnTypeRules.check(method, policy, description, problems);
		String[] names = this.parameterNames.getParameterNames(method);
		if (names == null && resolver != null && ArgumentNames.readByName(resolver)) {
			problems.add(description + ": resolver '" + annotation.resolver() + "' reads arguments by name "
					+ "(LockInvocation.argument), but " + ClassUtils.getShortName(method.getDeclaringClass())
					+ PARAMETER_NAMES_MISSING);
		}
		if (problems.size() > problemsBefore) {
			return null;
		}
		return new LockableMethod(method, targetClass, description, staticKey, resolver, annotation.resolver(), this.keys.obtain(), ttl,
				waitTime, annotation.renew(), policy, ReturnKind.of(method), names);
	}

	/**
	 * The failure for bad declarations, with the build's fix as its action when parameter
	 * names are missing: that is not fixed in the declaration.
	 */
	private static LockableConfigurationException failure(List<String> problems) {
		boolean namesMissing = problems.stream().anyMatch((problem) -> problem.endsWith(PARAMETER_NAMES_MISSING));
		boolean others = problems.stream().anyMatch((problem) -> !problem.endsWith(PARAMETER_NAMES_MISSING));
		String compile = "For the parameter names, " + ArgumentNames.COMPILE_WITH_PARAMETERS
				+ "; or read arguments by position with arguments().";
		String action = !namesMissing ? DECLARATIONS_ACTION
				: others ? DECLARATIONS_ACTION + " " + compile : compile;
		return new LockableConfigurationException(problems, action);
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

	private static String describe(Method method, Class<?> targetClass) {
		return ClassUtils.getShortName(targetClass) + "." + method.getName() + Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", ", "(", ")"));
	}

}
