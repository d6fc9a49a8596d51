package io.github.lockable.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * Imports the health indicator of a store that checks itself (the file store's lock
 * directory, the Redis store's server), written for the Spring Boot line on the class path. Boot 4 moved the health API from {@code org.springframework.boot.actuate.health} to
 * {@code org.springframework.boot.health.contributor}, and one jar serves both lines; the
 * Boot 3 configuration is named, not referenced, because builds on the 4.x line do not
 * compile it.
 */
class LockStoreHealthSelector implements ImportSelector, BeanClassLoaderAware {

	private static final String BOOT_4_HEALTH_INDICATOR = "org.springframework.boot.health.contributor.HealthIndicator";

	private static final String BOOT_3_HEALTH_INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";

	private static final String BOOT_3_CONFIGURATION = "io.github.lockable.autoconfigure.Boot3LockStoreHealthConfiguration";

	private @Nullable ClassLoader classLoader = ClassUtils.getDefaultClassLoader();

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public String[] selectImports(AnnotationMetadata importingClassMetadata) {
		// Boot 3 first: Boot 4 has no class of that name, while Boot 4's health jar may sit on a
		// Boot 3 class path without the rest of Boot 4 (as on this project's own build).
		if (ClassUtils.isPresent(BOOT_3_HEALTH_INDICATOR, this.classLoader)) {
			return new String[] { BOOT_3_CONFIGURATION };
		}
		if (ClassUtils.isPresent(BOOT_4_HEALTH_INDICATOR, this.classLoader)) {
			return new String[] { Boot4LockStoreHealthConfiguration.class.getName() };
		}
		return new String[0];
	}

}
