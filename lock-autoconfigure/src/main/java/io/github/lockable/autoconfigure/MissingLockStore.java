package io.github.lockable.autoconfigure;

import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import io.github.lockable.LockableConfigurationException;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Why {@code lockable.store} has no lock store: the one thing that is missing (a module, a
 * library, a bean), found the way the store's configuration looks for it, so that the
 * failure names it instead of every possible cause.
 */
final class MissingLockStore {

	static final String ACTION = "Add the dependency or bean named above, or set lockable.store to a store the "
			+ "application has (redis, jdbc, file or memory).";

	private MissingLockStore() {
	}

	static LockableConfigurationException failure(LockableProperties.Store store,
			@Nullable ConfigurableListableBeanFactory beanFactory) {
		return new LockableConfigurationException(List.of(why(store, beanFactory)), ACTION);
	}

	static String why(LockableProperties.Store store, @Nullable ConfigurableListableBeanFactory beanFactory) {
		ClassLoader classLoader = (beanFactory != null) ? beanFactory.getBeanClassLoader() : null;
		return switch (store) {
			case REDIS -> "lockable.store=redis needs Spring Data Redis with Lettuce on the class path "
					+ "(spring-boot-starter-data-redis), the Redis store (io.github.lockable:lockable-store-redis, which "
					+ "lockable-spring-boot-starter brings) and one RedisConnectionFactory bean, or one marked @Primary "
					+ "(spring.data.redis.*); "
					+ "or set lockable.store=file (one host) or lockable.store=memory (one JVM)";
			case FILE -> missingModule("file", "io.github.lockable.store.file.FileLockStore", "lockable-store-file",
					classLoader);
			case MEMORY -> "lockable.store=memory has no lock store bean";
			case JDBC -> jdbc(beanFactory, classLoader);
		};
	}

	private static String jdbc(@Nullable ConfigurableListableBeanFactory beanFactory,
			@Nullable ClassLoader classLoader) {
		String store = "io.github.lockable.store.jdbc.JdbcLockStore";
		if (!ClassUtils.isPresent(store, classLoader)) {
			return missingModule("jdbc", store, "lockable-store-jdbc", classLoader);
		}
		String springJdbc = "org.springframework.jdbc.datasource.init.ScriptUtils";
		if (!ClassUtils.isPresent(springJdbc, classLoader)) {
			return "lockable.store=jdbc needs Spring JDBC, which is not on the class path (" + springJdbc
					+ " is missing): add org.springframework.boot:spring-boot-starter-jdbc";
		}
		String[] dataSources = (beanFactory != null)
				? BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beanFactory, DataSource.class) : new String[0];
		if (dataSources.length == 0) {
			return "lockable.store=jdbc needs a DataSource bean and the application has none: add "
					+ "org.springframework.boot:spring-boot-starter-jdbc and the database's JDBC driver, and set "
					+ "spring.datasource.url (or define a DataSource bean)";
		}
		if (dataSources.length > 1) {
			return "lockable.store=jdbc needs one DataSource bean, or one marked @Primary, and the application has "
					+ dataSources.length + " " + Arrays.toString(dataSources)
					+ ": mark the one for the locks @Primary, or define a JdbcLockStore bean of your own";
		}
		return "lockable.store=jdbc needs the JDBC store on the class path "
				+ "(io.github.lockable:lockable-store-jdbc, with spring-jdbc) and one DataSource bean, or one marked "
				+ "@Primary (spring.datasource.*), or a LockStore bean of your own";
	}

	private static String missingModule(String store, String className, String artifactId,
			@Nullable ClassLoader classLoader) {
		if (ClassUtils.isPresent(className, classLoader)) {
			return "lockable.store=" + store + " has no lock store bean: define a LockStore bean, or leave it to "
					+ "Lockable's auto-configuration";
		}
		return "lockable.store=" + store + " needs the " + store + " store, which is not on the class path ("
				+ className + " is missing): add the dependency io.github.lockable:" + artifactId
				+ " (the starter's version) next to the starter";
	}

}
