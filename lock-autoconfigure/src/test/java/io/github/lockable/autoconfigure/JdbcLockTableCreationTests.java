package io.github.lockable.autoconfigure;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.test.jdbc.JdbcTestDatabases;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lockable.jdbc.initialize-schema=always} where the database refuses to create the
 * table: a schema that does not exist (H2), a user without the right to create tables, a
 * read-only database (real PostgreSQL). The start fails with Boot's report naming the
 * property, the table and the database's own reason.
 */
class JdbcLockTableCreationTests {

	private static final String DATABASE = "table_creation";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockableAutoConfiguration.class));

	@Test
	void aSchemaThatDoesNotExistFailsTheStartWithTheDatabasesReason() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=always",
						"lockable.jdbc.table-name=nosuch.lockable_lock")
				.run((context) -> assertReported(context, "nosuch.lockable_lock", "Schema \"NOSUCH\" not found",
						"schema-h2.sql"));
		}
	}

	@Test
	void aUserWithoutTheRightToCreateTablesFailsTheStartWithTheDatabasesReason() {
		try (HikariDataSource admin = JdbcTestDatabases.postgresWithoutTable(DATABASE)) {
			JdbcTemplate jdbc = new JdbcTemplate(admin);
			jdbc.execute("DROP TABLE IF EXISTS lockable_lock");
			jdbc.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lockable_reader') THEN "
					+ "CREATE ROLE lockable_reader LOGIN; END IF; END $$");
			// PostgreSQL before 15 lets every user create tables in public
			jdbc.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
			try (HikariDataSource reader = JdbcTestDatabases.postgresWithoutTable(DATABASE,
					(config) -> config.setUsername("lockable_reader"))) {
				this.runner.withBean(DataSource.class, () -> reader)
					.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=always")
					.run((context) -> assertReported(context, "lockable_lock",
							"ERROR: permission denied for schema public", "schema-postgresql.sql"));
			}
		}
	}

	@Test
	void aReadOnlyDatabaseFailsTheStartWithTheDatabasesReason() {
		try (HikariDataSource admin = JdbcTestDatabases.postgresWithoutTable(DATABASE)) {
			new JdbcTemplate(admin).execute("DROP TABLE IF EXISTS lockable_lock");
		}
		try (HikariDataSource readOnly = JdbcTestDatabases.postgresWithoutTable(DATABASE,
				(config) -> config.addDataSourceProperty("options", "-c default_transaction_read_only=on"))) {
			this.runner.withBean(DataSource.class, () -> readOnly)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=always")
				.run((context) -> assertReported(context, "lockable_lock",
						"ERROR: cannot execute CREATE TABLE in a read-only transaction", "schema-postgresql.sql"));
		}
	}

	private static void assertReported(AssertableApplicationContext context, String table, String reason,
			String script) {
		assertThat(context).hasFailed();
		assertThat(context.getStartupFailure()).rootCause().isInstanceOf(LockableConfigurationException.class);
		String report = new LockableConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
			.getDescription();
		assertThat(report).contains("lockable.jdbc.initialize-schema=always: could not create the lock table " + table
				+ ": " + reason)
			.contains("io/github/lockable/store/jdbc/" + script + " inside lockable-store-jdbc")
			.contains("set lockable.jdbc.initialize-schema=never")
			.doesNotContain("Failed to execute SQL script statement");
	}

}
