package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * A MariaDB server process that the tests start from Debian's {@code mariadb-server}
 * package ({@code /usr/sbin/mariadbd}, its data directory made by {@code mariadb-install-db})
 * in a temporary directory, on a free loopback port, with a socket of its own there and
 * {@code root} without password; stopped when the JVM exits. MariaDB runs as root only when
 * told to, so a root JVM runs it as the {@code mysql} user, in a directory that user owns.
 */
final class MariaDbProcess {

	private static final Path SERVER = Paths.get("/usr/sbin/mariadbd");

	private static final String OS_USER = "mysql";

	private final Process process;

	private final Path directory;

	private final int port;

	private MariaDbProcess(Process process, Path directory, int port) {
		this.process = process;
		this.directory = directory;
		this.port = port;
	}

	static MariaDbProcess start() {
		Path installDb = installDb();
		try {
			Path directory = Files.createTempDirectory("lockable-mariadb-");
			if (isRoot()) {
				run(List.of("chown", "-R", OS_USER + ":", directory.toString()), directory);
			}
			List<String> install = new ArrayList<>(List.of(installDb.toString(), "--no-defaults",
					"--datadir=" + directory.resolve("data"), "--auth-root-authentication-method=normal",
					"--skip-test-db", "--skip-name-resolve"));
			install.addAll(asMysqlUser());
			run(install, directory);
			int port = freeLoopbackPort();
			List<String> command = new ArrayList<>(List.of(SERVER.toString(), "--no-defaults",
					"--datadir=" + directory.resolve("data"), "--socket=" + directory.resolve("mariadbd.sock"),
					"--pid-file=" + directory.resolve("mariadbd.pid"), "--log-error=" + directory.resolve("server.log"),
					"--skip-networking=0", "--bind-address=127.0.0.1", "--port=" + port, "--skip-name-resolve",
					"--default-time-zone=" + MariaDbTestServer.TIME_ZONE, "--max-connections=200",
					"--innodb-buffer-pool-size=64M", "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0"));
			command.addAll(asMysqlUser());
			Process process = new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("console.log").toFile())
				.start();
			MariaDbProcess server = new MariaDbProcess(process, directory, port);
			Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "mariadb-test-server-stop"));
			server.awaitReady();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path installDb() {
		for (Path candidate : List.of(Paths.get("/usr/bin/mariadb-install-db"), Paths.get("/usr/bin/mysql_install_db"))) {
			if (Files.isExecutable(SERVER) && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException("The JDBC store's tests need a MariaDB server and found no /usr/sbin/mariadbd "
				+ "and /usr/bin/mariadb-install-db. Install Debian's package: "
				+ "'apt-get install -y --no-install-recommends mariadb-server' (sudo if not root); the tests start "
				+ "their own server from it, not the system service.");
	}

	private static boolean isRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	private static List<String> asMysqlUser() {
		return isRoot() ? List.of("--user=" + OS_USER) : List.of();
	}

	private static void run(List<String> command, Path directory) throws IOException {
		Path output = Files.createTempFile("lockable-mariadb-command-", ".log");
		try {
			Process process = new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			if (!process.waitFor(90, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException("Timed out: " + String.join(" ", command) + "\n" + read(output));
			}
			if (process.exitValue() != 0) {
				throw new IllegalStateException("Failed (exit " + process.exitValue() + "): " + String.join(" ", command)
						+ "\n" + read(output));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted: " + String.join(" ", command), ex);
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

	/** Until the server takes a connection, or has exited, or a minute has passed. */
	private void awaitReady() {
		try {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> !this.process.isAlive() || accepts());
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException("MariaDB did not accept connections within 60s: " + logs(), ex);
		}
		if (!this.process.isAlive()) {
			throw new IllegalStateException("MariaDB exited (" + this.process.exitValue() + "): " + logs());
		}
	}

	private boolean accepts() {
		try (Connection connection = DriverManager.getConnection(address().jdbcUrl(""), MariaDbTestServer.USER, "")) {
			return connection.isValid(5);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private String logs() {
		StringBuilder logs = new StringBuilder();
		for (String name : List.of("console.log", "server.log")) {
			Path log = this.directory.resolve(name);
			try {
				if (Files.exists(log)) {
					logs.append('\n').append(name).append(":\n").append(read(log));
				}
			}
			catch (IOException ex) {
				logs.append('\n').append(name).append(": ").append(ex);
			}
		}
		return logs.toString();
	}

	private static String read(Path file) throws IOException {
		return Files.readString(file, StandardCharsets.UTF_8);
	}

	private static int freeLoopbackPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	DatabaseAddress address() {
		return DatabaseAddress.of("mariadb", "127.0.0.1", this.port);
	}

	private void stop() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				// the JVM exits anyway; the directory stays for a look at server.log
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
		catch (IOException ex) {
			// a temporary directory, left behind
		}
	}

	@Override
	public String toString() {
		return "MariaDB on 127.0.0.1:" + this.port;
	}

}
