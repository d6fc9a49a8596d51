package io.github.lockable.autoconfigure;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.store.file.FileLockStore;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.test.jdbc.JdbcTestDatabases;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store named by {@code lockable.store} that cannot be built fails the start naming the
 * one thing missing, under an action that fits a missing dependency; and the failure
 * report's action fits a bad property too.
 */
class MissingLockStoreTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockableAutoConfiguration.class));

	@Test
	void jdbcWithoutItsModuleNamesTheModuleOnly() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withClassLoader(new FilteredClassLoader(JdbcLockStore.class))
				.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc")
				.run((context) -> {
					FailureAnalysis analysis = analysis(context.getStartupFailure());
					assertThat(analysis.getDescription()).contains("lockable.store=jdbc needs the jdbc store, which is "
							+ "not on the class path (io.github.lockable.store.jdbc.JdbcLockStore is missing): add the "
							+ "dependency io.github.lockable:lockable-store-jdbc")
						.doesNotContain("DataSource");
					assertThat(analysis.getAction()).isEqualTo(MissingLockStore.ACTION);
				});
		}
	}

	@Test
	void jdbcWithoutSpringJdbcNamesTheStarter() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2WithoutTable()) {
			this.runner.withClassLoader(new FilteredClassLoader("org.springframework.jdbc"))
				.withBean(DataSource.class, () -> h2)
				.withPropertyValues("lockable.store=jdbc")
				.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
					.contains("lockable.store=jdbc needs Spring JDBC, which is not on the class path "
							+ "(org.springframework.jdbc.datasource.init.ScriptUtils is missing): add "
							+ "org.springframework.boot:spring-boot-starter-jdbc")
					.doesNotContain("lockable-store-jdbc"));
		}
	}

	@Test
	void jdbcWithoutADataSourceSaysHowToGetOne() {
		this.runner.withPropertyValues("lockable.store=jdbc").run((context) -> {
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.contains("lockable.store=jdbc needs a DataSource bean and the application has none: add "
						+ "org.springframework.boot:spring-boot-starter-jdbc and the database's JDBC driver, and set "
						+ "spring.datasource.url")
				.doesNotContain("lockable-store-jdbc");
			assertThat(analysis.getAction()).isEqualTo(MissingLockStore.ACTION);
		});
	}

	@Test
	void fileWithoutItsModuleNamesTheModule() {
		this.runner.withClassLoader(new FilteredClassLoader(FileLockStore.class))
			.withPropertyValues("lockable.store=file", "lockable.file.directory=/tmp/unused")
			.run((context) -> {
				FailureAnalysis analysis = analysis(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("lockable.store=file needs the file store, which is not "
						+ "on the class path (io.github.lockable.store.file.FileLockStore is missing): add the "
						+ "dependency io.github.lockable:lockable-store-file");
				assertThat(analysis.getAction()).isEqualTo(MissingLockStore.ACTION);
			});
	}

	@Test
	void aBadPropertyAsksToFixTheProperty() {
		this.runner.withPropertyValues("lockable.store=memory", "lockable.max-key-length=0").run((context) -> {
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("lockable.max-key-length must be at least 1");
			assertThat(analysis.getAction()).isEqualTo("Fix each lockable.* property listed above.");
		});
	}

	private static FailureAnalysis analysis(Throwable failure) {
		assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
			.isInstanceOf(LockableConfigurationException.class);
		FailureAnalysis analysis = new LockableConfigurationFailureAnalyzer().analyze(failure);
		assertThat(analysis).isNotNull();
		return analysis;
	}

}
