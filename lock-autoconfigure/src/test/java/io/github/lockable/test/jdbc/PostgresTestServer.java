package io.github.lockable.test.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A real PostgreSQL server for the tests; one per JVM, shared by every test, found or
 * started on first use, or a private one that a test stops and starts again.
 * <p>
 * The shared server, first match wins: the server of {@value #URL_VARIABLE}, a JDBC URL
 * whose databases the tests create and use, as {@link #USER} without password; a
 * Testcontainers {@code postgres:15-alpine} container when a Docker engine answers; a
 * server started from Debian's {@code postgresql} package; a server started from zonky's
 * PostgreSQL 14 binaries, a test dependency ({@link PostgresProcess} for both).
 * {@value #MODE_VARIABLE} ({@code url}, {@code container}, {@code path} or
 * {@code embedded}) restricts the search to one of them. A private server is started from
 * Debian's package when it is installed, else from zonky's binaries; {@code path} or
 * {@code embedded} chooses.
 * <p>
 * Without a server the tests fail and say how to install one: there is no skipping.
 */
public final class PostgresTestServer {

	/** The superuser that {@code initdb} creates. */
	public static final String USER = "postgres";

	static final String URL_VARIABLE = "LOCKABLE_TEST_POSTGRES_URL";

	static final String MODE_VARIABLE = "LOCKABLE_TEST_POSTGRES_MODE";

	private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

	private static volatile PostgresTestServer shared;

	private final DatabaseAddress address;

	private final String description;

	/** The process of a private server, null for the shared one. */
	private final PostgresProcess process;

	private PostgresTestServer(DatabaseAddress address, String description, PostgresProcess process) {
		this.address = address;
		this.description = description;
		this.process = process;
	}

	/**
	 * The server of this JVM, found or started on first use.
	 * @return the running server
	 */
	public static PostgresTestServer shared() {
		PostgresTestServer server = shared;
		if (server == null) {
			synchronized (PostgresTestServer.class) {
				server = shared;
				if (server == null) {
					server = find(System::getenv);
					shared = server;
				}
			}
		}
		return server;
	}

	static PostgresTestServer find(Function<String, String> environment) {
		return JdbcServerSearch.first(new JdbcServerSearch.Ways<>("PostgreSQL", URL_VARIABLE, MODE_VARIABLE,
				(address) -> new PostgresTestServer(address, "PostgreSQL of " + URL_VARIABLE + " at "
						+ address.prefix(), null),
				() -> new PostgresTestServer(DatabaseContainers.postgres(), "Testcontainers postgres:15-alpine", null),
				() -> started(PostgresBinaries.debian(), false), () -> started(PostgresBinaries.embedded(), false)),
				environment);
	}

	private static PostgresTestServer started(PostgresBinaries binaries, boolean own) {
		PostgresProcess process = PostgresProcess.start(binaries);
		return new PostgresTestServer(process.address(), process.toString(), own ? process : null);
	}

	/**
	 * A server of the caller's own, not shared: one that a test may {@link #stop()} and
	 * {@link #start()} again, on the same port and data directory. Started from Debian's
	 * package when it is installed, else from zonky's binaries; {@value #MODE_VARIABLE}
	 * {@code path} or {@code embedded} chooses. Stopped and deleted when the JVM exits.
	 * @return the running server
	 */
	public static PostgresTestServer startPrivate() {
		return startPrivate(System::getenv);
	}

	static PostgresTestServer startPrivate(Function<String, String> environment) {
		String mode = JdbcServerSearch.mode(MODE_VARIABLE, environment);
		boolean embedded = "embedded".equals(mode) || (!"path".equals(mode) && !PostgresBinaries.debianInstalled());
		return started(embedded ? PostgresBinaries.embedded() : PostgresBinaries.debian(), true);
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
	 * @param database the database
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
		try (Connection connection = DriverManager.getConnection(jdbcUrl("postgres"), USER, "")) {
			try (PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
				exists.setString(1, database);
				try (ResultSet row = exists.executeQuery()) {
					if (row.next()) {
						return;
					}
				}
			}
			try (Statement create = connection.createStatement()) {
				create.execute("CREATE DATABASE " + database);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create the database " + database, ex);
		}
	}

	/**
	 * Stops a {@link #startPrivate() private} server as an administrator would ({@code pg_ctl
	 * stop -m fast}): its connections are cut, its data kept.
	 */
	public void stop() {
		privateProcess().stop();
	}

	/** Starts a stopped {@link #startPrivate() private} server again, on its port and data. */
	public void start() {
		privateProcess().restart();
	}

	private PostgresProcess privateProcess() {
		if (this.process == null) {
			throw new IllegalStateException("The shared server serves every test: start a private one to stop it");
		}
		return this.process;
	}

	@Override
	public String toString() {
		return this.description;
	}

}
