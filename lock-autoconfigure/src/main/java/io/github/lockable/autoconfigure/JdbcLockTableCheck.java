package io.github.lockable.autoconfigure;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.store.jdbc.JdbcLockStoreSchema;
import io.github.lockable.store.jdbc.JdbcLockStoreSchema.TableProblem;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.StringUtils;

/**
 * Checks the table of every {@link JdbcLockStore} once the context's singletons exist, so
 * after the migrations that run while the context starts (Flyway's and Liquibase's
 * initializers, {@code spring.sql.init}): a table that is missing, or lacks the columns or
 * the key of Lockable's script, fails the start with a {@link LockableConfigurationException}
 * that says how to create it, or, with {@code lockable.jdbc.fail-on-missing-table=false}, is
 * one WARN. A database that cannot be asked now is a WARN too: the store's health and its
 * calls say more, and a database that is down never stops the application.
 */
final class JdbcLockTableCheck implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(JdbcLockTableCheck.class);

	private final ObjectProvider<JdbcLockStore> stores;

	private final LockableProperties.Jdbc properties;

	JdbcLockTableCheck(ObjectProvider<JdbcLockStore> stores, LockableProperties.Jdbc properties) {
		this.stores = stores;
		this.properties = properties;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.stores.orderedStream().forEach(this::check);
	}

	private void check(JdbcLockStore store) {
		TableProblem problem;
		try {
			problem = JdbcLockStoreSchema.check(store);
		}
		catch (LockStoreException ex) {
			logger.warn("Could not check the lock table of {} at startup ({}): {}", store, ex.getCode(), ex.getMessage());
			return;
		}
		if (problem == null) {
			return;
		}
		if (this.properties.isFailOnMissingTable()) {
			throw new LockableConfigurationException(List.of("lockable.store=jdbc with lockable.jdbc.initialize-schema="
					+ this.properties.getInitializeSchema().name().toLowerCase(Locale.ROOT) + ": " + problem.description()
					+ (problem.missing() ? ". If a migration creates the table after startup, set "
							: ". To start anyway, set ")
					+ "lockable.jdbc.fail-on-missing-table=false. The script for this table:" + System.lineSeparator()
					+ indented(problem.ddl())));
		}
		logger.warn("{}; starting anyway (lockable.jdbc.fail-on-missing-table=false): lock calls fail until the table "
				+ "is right", StringUtils.capitalize(problem.description()));
	}

	/** The DDL under the report's list item, as far in as its text. */
	private static String indented(String ddl) {
		return ddl.lines().map((line) -> "        " + line).collect(Collectors.joining(System.lineSeparator()));
	}

}
