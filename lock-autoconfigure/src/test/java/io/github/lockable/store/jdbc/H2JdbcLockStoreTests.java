package io.github.lockable.store.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.github.lockable.test.jdbc.JdbcTestDatabases;

/**
 * The store contract and the JDBC store's own cases on an in-memory H2 database, whose
 * acquire is one {@code MERGE}: the contract's concurrent cases show that two callers never
 * both take a row over.
 */
class H2JdbcLockStoreTests extends JdbcLockStoreContract {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = JdbcTestDatabases.h2();
	}

	@AfterAll
	static void closeDatabase() {
		if (dataSource != null) {
			dataSource.close();
		}
	}

	@Override
	protected DataSource dataSource() {
		return dataSource;
	}

}
