package io.github.lockable.test.jdbc;

import java.util.UUID;
import java.util.function.Consumer;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.DatabasePopulatorUtils;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * Data sources for the JDBC store's tests: a Hikari pool, as Spring Boot gives an
 * application, with the store's table created by the platform's schema script.
 */
public final class JdbcTestDatabases {

	private JdbcTestDatabases() {
	}

	/**
	 * A new in-memory H2 database with the lock table.
	 * @return its pool; the caller closes it
	 */
	public static HikariDataSource h2() {
		HikariDataSource dataSource = h2WithoutTable();
		createTable(dataSource, "h2");
		return dataSource;
	}

	/**
	 * A new in-memory H2 database without tables.
	 * @return its pool; the caller closes it
	 */
	public static HikariDataSource h2WithoutTable() {
		return pool("jdbc:h2:mem:lockable-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa");
	}

	/**
	 * A pool on a database of the shared PostgreSQL server, without the lock table.
	 * @param database the database, created if missing
	 * @return its pool; the caller closes it
	 */
	public static HikariDataSource postgresWithoutTable(String database) {
		PostgresTestServer server = PostgresTestServer.shared();
		server.createDatabase(database);
		return pool(server.jdbcUrl(database), PostgresTestServer.USER);
	}

	/**
	 * A pool on a database of the shared PostgreSQL server, without the lock table, set up
	 * further (another user, the driver's {@code options}).
	 * @param database the database, created if missing
	 * @param settings what to change of the pool's configuration
	 * @return its pool; the caller closes it
	 */
	public static HikariDataSource postgresWithoutTable(String database, Consumer<HikariConfig> settings) {
		PostgresTestServer server = PostgresTestServer.shared();
		server.createDatabase(database);
		HikariConfig config = config(server.jdbcUrl(database), PostgresTestServer.USER);
		settings.accept(config);
		return new HikariDataSource(config);
	}

	/**
	 * A pool on a database of the shared PostgreSQL server, with the lock table.
	 * @param database the database, created if missing
	 * @return its pool; the caller closes it
	 */
	public static HikariDataSource postgres(String database) {
		PostgresTestServer server = PostgresTestServer.shared();
		server.createDatabase(database);
		HikariDataSource dataSource = pool(server.jdbcUrl(database), PostgresTestServer.USER);
		createTable(dataSource, "postgresql");
		return dataSource;
	}

	/**
	 * A pool on a database of the shared MariaDB server, without the lock table.
	 * @param database the database, created if missing
	 * @return its pool; the caller closes it
	 */
	public static HikariDataSource mariadbWithoutTable(String database) {
		MariaDbTestServer server = MariaDbTestServer.shared();
		server.createDatabase(database);
		return pool(server.jdbcUrl(database), MariaDbTestServer.USER);
	}

	/**
	 * A pool on a database of the shared MariaDB server, with the lock table.
	 * @param database the database, created if missing
	 * @return its pool; the caller closes it
	 */
	public static HikariDataSource mariadb(String database) {
		HikariDataSource dataSource = mariadbWithoutTable(database);
		createTable(dataSource, "mysql");
		return dataSource;
	}

	static HikariDataSource pool(String url, String user) {
		return new HikariDataSource(config(url, user));
	}

	private static HikariConfig config(String url, String user) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(user);
		config.setMaximumPoolSize(24);
		config.setMinimumIdle(2);
		return config;
	}

	/**
	 * Runs the store's schema script of a platform.
	 * @param dataSource where
	 * @param platform {@code h2}, {@code postgresql} or {@code mysql}
	 */
	public static void createTable(DataSource dataSource, String platform) {
		DatabasePopulatorUtils.execute(new ResourceDatabasePopulator(
				new ClassPathResource("io/github/lockable/store/jdbc/schema-" + platform + ".sql")), dataSource);
	}

}
