package io.github.lockable.test.jdbc;

import java.time.Duration;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The Testcontainers containers of the test database servers, configured as the servers the
 * harness starts from the binaries: the same users without password, the same time zone.
 * Stopped when the JVM exits. Only touched when a Docker engine answers.
 */
final class DatabaseContainers {

	private DatabaseContainers() {
	}

	@SuppressWarnings("resource")
	static DatabaseAddress postgres() {
		GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("postgres:15-alpine"))
			.withEnv("POSTGRES_HOST_AUTH_METHOD", "trust")
			.withCommand("postgres", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
					"-c", "max_connections=200")
			.withExposedPorts(5432)
			// the image's entry point starts a server to initialise, stops it, then starts the real one
			.waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\s", 2)
				.withStartupTimeout(Duration.ofMinutes(2)));
		return start(container, "postgresql", 5432);
	}

	@SuppressWarnings("resource")
	static DatabaseAddress mariadb() {
		GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("mariadb:10.11"))
			.withEnv("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "1")
			.withCommand("--default-time-zone=" + MariaDbTestServer.TIME_ZONE, "--max-connections=200",
					"--innodb-flush-log-at-trx-commit=0", "--skip-name-resolve")
			.withExposedPorts(3306)
			// the initialising server does not listen on TCP: the port opens for the real one
			.waitingFor(Wait.forListeningPort().withStartupTimeout(Duration.ofMinutes(2)));
		return start(container, "mariadb", 3306);
	}

	private static DatabaseAddress start(GenericContainer<?> container, String scheme, int port) {
		container.start();
		Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "database-test-container-stop"));
		return DatabaseAddress.of(scheme, container.getHost(), container.getMappedPort(port));
	}

}
