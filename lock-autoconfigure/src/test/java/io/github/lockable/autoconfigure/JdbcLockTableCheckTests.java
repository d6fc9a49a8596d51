package io.github.lockable.autoconfigure;

import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.test.Stages;
import io.github.lockable.test.jdbc.JdbcTestDatabases;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check of the JDBC store's table once the context's singletons exist: a missing table,
 * or one without the columns and key of Lockable's script, fails the start saying how to
 * create it, unless {@code lockable.jdbc.fail-on-missing-table=false} makes it one WARN; a
 * table that a migration creates while the context starts passes.
 */
@ExtendWith(OutputCaptureExtension.class)
class JdbcLockTableCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockableAutoConfiguration.class));

	@Test
	void aMissingTableFailsTheStartWithThePropertyTheScriptAndTheDdl() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=never",
						"lockable.jdbc.table-name=app_locks")
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).isInstanceOf(LockableConfigurationException.class);
					String problem = ((LockableConfigurationException) context.getStartupFailure()).getProblems()
						.get(0);
					assertThat(problem).contains("lockable.jdbc.initialize-schema=never: the lock table app_locks does not exist")
						.contains("set lockable.jdbc.initialize-schema=always")
						.contains("io/github/lockable/store/jdbc/schema-h2.sql inside lockable-store-jdbc")
						.contains("lockable.jdbc.fail-on-missing-table=false")
						.contains("        CREATE TABLE IF NOT EXISTS app_locks (")
						.contains("        \tfencing_token BIGINT NOT NULL,")
						.doesNotContain("--");
					FailureAnalysis report = new LockableConfigurationFailureAnalyzer()
						.analyze(context.getStartupFailure());
					assertThat(report.getDescription()).contains("lockable.jdbc.initialize-schema=always")
						.contains("schema-h2.sql")
						.contains("CREATE TABLE IF NOT EXISTS app_locks (");
				});
		}
	}

	@Test
	void failOnMissingTableOffStartsWithOneWarnAndHealthSaysHowToCreateIt(CapturedOutput output) {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=never",
						"lockable.jdbc.fail-on-missing-table=false")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					LockStoreHealth.Status health = context.getBean(JdbcLockStore.class).checkHealth();
					assertThat(health.usable()).isFalse();
					assertThat(health.details()).containsEntry("error", "NO_TABLE");
					assertThat((String) health.details().get("action"))
						.contains("lockable.jdbc.initialize-schema=always")
						.contains("io/github/lockable/store/jdbc/schema-h2.sql");
					AcquireResult result = Stages.join(context.getBean(LockStore.class)
						.acquire(new LockRequest("lock:no-table", Duration.ofSeconds(30))));
					assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class,
							(failed) -> assertThat(failed.cause().getMessage())
								.contains("the lock table lockable_lock does not exist: set "
										+ "lockable.jdbc.initialize-schema=always")
								.contains("io/github/lockable/store/jdbc/schema-h2.sql"));
				});
		}
		assertThat(output.getAll().lines().filter((line) -> line.contains("WARN")
				&& line.contains("The lock table lockable_lock does not exist")
				&& line.contains("starting anyway (lockable.jdbc.fail-on-missing-table=false)")))
			.hasSize(1);
	}

	@Test
	void aTableThatAMigrationCreatesWhileTheContextStartsPasses() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withBean(DataSource.class, () -> h2)
				// created after the store, as a Flyway or Liquibase initializer may be
				.withBean("migration", Migration.class, () -> new Migration(h2),
						(definition) -> definition.setDependsOn("jdbcLockStore"))
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=never")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBean(JdbcLockStore.class).checkHealth().usable()).isTrue();
				});
		}
	}

	@Test
	void aTableWithOtherColumnsFailsTheStartNamingEach() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			new JdbcTemplate(h2).execute("CREATE TABLE lockable_lock (lock_key VARCHAR(100) NOT NULL, "
					+ "token VARCHAR(36) NOT NULL, fencing_token INT NOT NULL, expires_at TIMESTAMP NOT NULL, "
					+ "acquired_at TIMESTAMP WITH TIME ZONE NOT NULL, holder_instance VARCHAR(255), "
					+ "holder_method VARCHAR(1000))");
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc")
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(((LockableConfigurationException) context.getStartupFailure()).getProblems())
						.singleElement()
						.asString()
						.contains("the lock table lockable_lock is not as Lockable's script creates it (")
						.contains("lock_key holds 100 characters, fewer than 512")
						.contains("fencing_token is INTEGER, not a BIGINT")
						.contains("expires_at is TIMESTAMP, not TIMESTAMP(6) WITH TIME ZONE")
						.contains("holder_pid is missing")
						.contains("lock_key is neither its primary key nor unique")
						.doesNotContain("acquired_at is")
						.contains("io/github/lockable/store/jdbc/schema-h2.sql")
						.contains("CREATE TABLE IF NOT EXISTS lockable_lock (");
				});
		}
	}

	@Test
	void aUniqueIndexOnLockKeyIsAsGoodAsThePrimaryKey() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			JdbcTestDatabases.createTable(h2, "h2");
			JdbcTemplate jdbc = new JdbcTemplate(h2);
			jdbc.execute("ALTER TABLE lockable_lock DROP PRIMARY KEY");
			jdbc.execute("CREATE UNIQUE INDEX lockable_lock_key ON lockable_lock (lock_key)");
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc")
				.run((context) -> assertThat(context).hasNotFailed());
		}
	}

	@Test
	void aTableWithOtherColumnsIsOneWarnWithFailOnMissingTableOff(CapturedOutput output) {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			JdbcTestDatabases.createTable(h2, "h2");
			new JdbcTemplate(h2).execute("ALTER TABLE lockable_lock DROP COLUMN holder_method");
			this.runner.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.fail-on-missing-table=false")
				.run((context) -> assertThat(context).hasNotFailed());
		}
		assertThat(output.getAll().lines().filter((line) -> line.contains("WARN")
				&& line.contains("The lock table lockable_lock is not as Lockable's script creates it (holder_method is missing)")))
			.hasSize(1);
	}

	@Test
	void aDatabaseThatCannotBeAskedAtStartupIsAWarnNotAFailedStart(CapturedOutput output) {
		HikariDataSource closed = JdbcTestDatabases.h2WithoutTable();
		closed.close();
		this.runner.withBean(DataSource.class, () -> closed)
			.withPropertyValues("lockable.store=jdbc", "lockable.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output.getAll()).contains("Could not check the lock table of JdbcLockStore[lockable_lock] at startup (");
	}

	/** Creates the lock table when it is created, as a migration bean would. */
	static final class Migration {

		Migration(DataSource dataSource) {
			JdbcTestDatabases.createTable(dataSource, "h2");
		}

	}

}
