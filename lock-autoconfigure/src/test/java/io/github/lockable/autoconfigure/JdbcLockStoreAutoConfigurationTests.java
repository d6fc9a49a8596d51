package io.github.lockable.autoconfigure;

import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.core.LockableCore;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.Stages;
import io.github.lockable.test.jdbc.JdbcTestDatabases;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lockable.store=jdbc}: the store on the application's one {@link DataSource}, and
 * its table created as {@code lockable.jdbc.initialize-schema} says (or the start failed
 * when it is missing, see {@link JdbcLockTableCheckTests}).
 */
class JdbcLockStoreAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockableAutoConfiguration.class));

	@Test
	void jdbcStoreOnRequestCreatesItsTableInAnEmbeddedDatabase() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2).withPropertyValues("lockable.store=jdbc").run((context) -> {
				assertThat(context).hasSingleBean(JdbcLockStore.class).doesNotHaveBean(RedisLockStore.class);
				LockStore store = context.getBean(LockStore.class);
				assertThat(context.getBean(LockableCore.class).store()).isSameAs(store);
				assertAcquires(store);
				assertThat(count(h2, "lockable_lock")).isOne();
			});
		}
	}

	@Test
	void tableNameIsConfigurable() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.table-name=app_locks")
				.run((context) -> {
					assertAcquires(context.getBean(LockStore.class));
					assertThat(count(h2, "app_locks")).isOne();
					assertThat(new JdbcTemplate(h2).queryForObject(
							"SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE LOWER(TABLE_NAME) = 'lockable_lock'",
							Integer.class))
						.isZero();
				});
		}
	}

	@Test
	void listeningForReleasesIsOnUnlessTurnedOff() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2()) {
			this.runner.withBean(DataSource.class, () -> h2).withPropertyValues("lockable.store=jdbc").run((context) ->
					assertThat(ReflectionTestUtils.getField(context.getBean(JdbcLockStore.class), "notifications"))
						.isNotNull());
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.listen-for-releases=false")
				.run((context) -> assertThat(
						ReflectionTestUtils.getField(context.getBean(JdbcLockStore.class), "notifications"))
					.isNull());
		}
	}

	@Test
	void initializeSchemaNeverLeavesTheTableToTheApplication() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=never",
						"lockable.jdbc.fail-on-missing-table=false")
				.run((context) -> {
					LockStoreHealth.Status health = context.getBean(JdbcLockStore.class).checkHealth();
					assertThat(health.usable()).isFalse();
					assertThat(health.details()).containsEntry("error", "NO_TABLE");
				});
		}
	}

	@Test
	void aServerDatabaseGetsItsTableOnlyWithInitializeSchemaAlways() {
		try (HikariDataSource postgres = JdbcTestDatabases.postgresWithoutTable("autoconfig")) {
			new JdbcTemplate(postgres).execute("DROP TABLE IF EXISTS lockable_lock");
			this.runner.withBean(DataSource.class, () -> new DelegatingDataSource(postgres)).withPropertyValues("lockable.store=jdbc").run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(LockableConfigurationException.class)
					.hasMessageContaining("lockable.jdbc.initialize-schema=embedded: the lock table lockable_lock does not exist")
					.hasMessageContaining("io/github/lockable/store/jdbc/schema-postgresql.sql inside lockable-store-jdbc")
					.hasMessageContaining("lock_key VARCHAR(512) COLLATE \"C\" NOT NULL,");
				assertThat(new LockableConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
					.getDescription()).contains("set lockable.jdbc.initialize-schema=always");
			});
			this.runner.withBean(DataSource.class, () -> new DelegatingDataSource(postgres))
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=always")
				.run((context) -> {
					assertThat(context.getBean(JdbcLockStore.class).checkHealth().details()).containsEntry("platform",
							"postgresql");
					assertAcquires(context.getBean(LockStore.class));
				});
			// a second start finds the table there (the context closes no pool of a DelegatingDataSource)
			this.runner.withBean(DataSource.class, () -> new DelegatingDataSource(postgres))
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=always")
				.run((context) -> assertThat(context).hasNotFailed());
		}
	}

	@Test
	void aBadTableNameFailsStartup() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.table-name=locks; DROP TABLE users")
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOf(LockableConfigurationException.class)
						.hasMessageContaining("lockable.jdbc.table-name");
				});
		}
	}

	@Test
	void twoDataSourcesWithoutAPrimaryFailStartupSayingWhatToDo() {
		try (HikariDataSource one = JdbcTestDatabases.h2WithoutTable();
				HikariDataSource two = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean("one", DataSource.class, () -> one)
				.withBean("two", DataSource.class, () -> two)
				.withPropertyValues("lockable.store=jdbc")
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOf(LockableConfigurationException.class)
						.hasMessageContaining("one DataSource bean, or one marked @Primary");
				});
		}
	}

	@Test
	void withoutTheJdbcStoreModuleTheJdbcStoreFailsStartupNamingIt() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withClassLoader(new FilteredClassLoader(JdbcLockStore.class))
				.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc")
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOf(LockableConfigurationException.class)
						.hasMessageContaining("io.github.lockable:lockable-store-jdbc");
				});
		}
	}

	private static void assertAcquires(LockStore store) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest("lock:autoconfig", Duration.ofSeconds(30))));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		Stages.join(((AcquireResult.Acquired) result).handle().release());
	}

	private static int count(DataSource dataSource, String table) {
		return new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM " + table, Integer.class);
	}

}
