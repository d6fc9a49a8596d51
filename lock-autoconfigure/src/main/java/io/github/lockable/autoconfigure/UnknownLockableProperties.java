package io.github.lockable.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Warns at startup, once per name, of every {@code lockable.*} property that no setting of
 * {@link LockableProperties} binds, such as {@code lockable.defualt-ttl}: Spring Boot
 * ignores it, and the application would run with the default. The warning names the
 * nearest known property.
 * <p>
 * Names compare as Spring Boot binds them, so {@code lockable.defaultTtl} and
 * {@code LOCKABLE_DEFAULT_TTL} are known. An environment variable is reported only when it
 * is close to a known property: other tools may have {@code LOCKABLE_*} variables of
 * their own.
 */
final class UnknownLockableProperties implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(LockableAutoConfiguration.class);

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("lockable");

	/** The known names, by their form without separators, as relaxed binding compares them. */
	private static final Map<String, String> KNOWN = known();

	private final Environment environment;

	UnknownLockableProperties(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (String warning : warnings(this.environment)) {
			logger.warn(warning);
		}
	}

	static List<String> warnings(Environment environment) {
		Map<String, String> unknown = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			boolean variables = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
			iterable.stream().filter(ROOT::isAncestorOf).forEach((name) -> {
				String compact = compact(name);
				if (KNOWN.containsKey(compact) || unknown.containsKey(compact)) {
					return;
				}
				String nearest = nearest(compact);
				if (nearest == null && variables) {
					return;
				}
				unknown.put(compact, message(name, origin(source, name), nearest));
			});
		}
		return List.copyOf(unknown.values());
	}

	private static String message(ConfigurationPropertyName name, @Nullable String origin, @Nullable String nearest) {
		return "Unknown property '" + name + "'" + ((origin != null) ? " (" + origin + ")" : "")
				+ " is ignored by Lockable; " + ((nearest != null) ? "did you mean '" + nearest + "'?"
						: "no known lockable.* property is close (see Lockable's README for the list)");
	}

	private static @Nullable String origin(ConfigurationPropertySource source, ConfigurationPropertyName name) {
		ConfigurationProperty property = source.getConfigurationProperty(name);
		return (property != null && property.getOrigin() != null) ? property.getOrigin().toString() : null;
	}

	/**
	 * The known name closest to the given one by edit distance, when close enough to be a
	 * typo.
	 */
	private static @Nullable String nearest(String compact) {
		String nearest = null;
		int best = Integer.MAX_VALUE;
		for (Map.Entry<String, String> known : KNOWN.entrySet()) {
			int distance = distance(compact, known.getKey());
			if (distance < best) {
				best = distance;
				nearest = known.getValue();
			}
		}
		int suffix = compact.length() - "lockable".length();
		return (best <= Math.min(3, Math.max(2, suffix / 4))) ? nearest : null;
	}

	/** Levenshtein distance. */
	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	/**
	 * The name without dashes, dots and case: {@code lockable.default-ttl},
	 * {@code lockable.defaultTtl} and {@code LOCKABLE_DEFAULT_TTL} are one.
	 */
	private static String compact(ConfigurationPropertyName name) {
		StringBuilder compact = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			compact.append(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
		}
		return compact.toString();
	}

	private static Map<String, String> known() {
		Map<String, String> known = new LinkedHashMap<>();
		for (String name : names("lockable", LockableProperties.class)) {
			known.put(compact(ConfigurationPropertyName.of(name)), name);
		}
		return known;
	}

	/**
	 * The names {@link LockableProperties} binds: its settable properties, and those of its
	 * nested groups.
	 */
	private static List<String> names(String prefix, Class<?> type) {
		List<String> names = new ArrayList<>();
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
			Class<?> propertyType = property.getPropertyType();
			String name = prefix + "." + DataObjectPropertyName.toDashedForm(property.getName());
			if (propertyType != null && propertyType.getDeclaringClass() == LockableProperties.class
					&& !propertyType.isEnum()) {
				names.addAll(names(name, propertyType));
			}
			else if (property.getWriteMethod() != null) {
				names.add(name.toLowerCase(Locale.ROOT));
			}
		}
		return names;
	}

}
