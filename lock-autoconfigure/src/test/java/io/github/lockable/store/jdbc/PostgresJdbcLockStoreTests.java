package io.github.lockable.store.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.github.lockable.test.jdbc.JdbcTestDatabases;

/**
 * The store contract and the JDBC store's own cases on a real PostgreSQL server, which the
 * harness starts ({@link io.github.lockable.test.jdbc.PostgresTestServer}).
 */
class PostgresJdbcLockStoreTests extends JdbcLockStoreContract {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = JdbcTestDatabases.postgres("contract");
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
