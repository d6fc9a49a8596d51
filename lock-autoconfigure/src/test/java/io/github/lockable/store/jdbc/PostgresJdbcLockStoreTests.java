package io.github.lockable.store.jdbc;

import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.test.Stages;

import io.github.lockable.test.jdbc.JdbcTestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

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

	/**
	 * A database that refuses writes ({@code default_transaction_read_only}, as a standby
	 * does) fails every acquire, so its health is DOWN and says why; a read would pass.
	 */
	@Test
	void aDatabaseThatRefusesWritesIsDownInHealthAndFailsAcquiresAsReadOnly() {
		try (HikariDataSource readOnly = JdbcTestDatabases.postgresWithoutTable("contract",
				(config) -> config.setConnectionInitSql("SET default_transaction_read_only = on"));
				JdbcLockStore store = new JdbcLockStore(readOnly)) {
			LockStoreHealth.Status health = store.checkHealth();
			assertThat(health.usable()).as("%s", health.details()).isFalse();
			assertThat(health.details()).containsEntry("error", "READ_ONLY")
				.containsEntry("action",
						"the database refuses writes (read-only, or a standby): point the DataSource at the primary");
			AcquireResult result = Stages.join(store.acquire(new LockRequest("read-only", Duration.ofSeconds(30))));
			assertThat(result).isInstanceOf(AcquireResult.Failed.class);
			assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("READ_ONLY");
		}
		assertThat(((LockStoreHealth) store()).checkHealth().usable()).as("the writable pool on the same table").isTrue();
	}

}
