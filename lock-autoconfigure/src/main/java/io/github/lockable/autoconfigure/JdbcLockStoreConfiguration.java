package io.github.lockable.autoconfigure;

import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.store.jdbc.JdbcLockStoreSchema;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JDBC store, on the application's {@link DataSource}: the table
 * {@code lockable.jdbc.table-name}, created at startup as
 * {@code lockable.jdbc.initialize-schema} says, and checked once the context's singletons
 * exist ({@code lockable.jdbc.fail-on-missing-table}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = { "io.github.lockable.store.jdbc.JdbcLockStore",
		"org.springframework.jdbc.datasource.init.ScriptUtils" })
@ConditionalOnProperty(name = "lockable.store", havingValue = "jdbc")
class JdbcLockStoreConfiguration {

	/**
	 * The store; closed with the context, which wakes its waiters.
	 */
	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	@ConditionalOnSingleCandidate(DataSource.class)
	JdbcLockStore jdbcLockStore(DataSource dataSource, LockableProperties properties) {
		LockableProperties.Jdbc jdbc = properties.getJdbc();
		JdbcLockStore store = new JdbcLockStore(dataSource, jdbc.getTableName(), properties.getAcquireTimeout(),
				jdbc.isListenForReleases());
		if (jdbc.getInitializeSchema() == LockableProperties.InitializeSchema.ALWAYS
				|| (jdbc.getInitializeSchema() == LockableProperties.InitializeSchema.EMBEDDED
						&& JdbcLockStoreSchema.isEmbedded(dataSource))) {
			try {
				JdbcLockStoreSchema.create(dataSource, jdbc.getTableName());
			}
			catch (IllegalStateException ex) {
				throw new LockableConfigurationException(List.of("lockable.jdbc.initialize-schema="
						+ jdbc.getInitializeSchema().name().toLowerCase(Locale.ROOT) + ": " + ex.getMessage()));
			}
		}
		return store;
	}

	/**
	 * The check of the store's table, once every singleton exists: the migrations that run
	 * at startup have run by then.
	 */
	@Bean
	@ConditionalOnMissingBean
	JdbcLockTableCheck jdbcLockTableCheck(ObjectProvider<JdbcLockStore> stores, LockableProperties properties) {
		return new JdbcLockTableCheck(stores, properties.getJdbc());
	}

}
