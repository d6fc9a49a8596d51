package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server process that the tests start from Debian's {@code postgresql} package
 * ({@code /usr/lib/postgresql/<version>/bin}, 15 preferred) in a temporary directory, on a
 * free loopback port, with trust authentication and without fsync; stopped and deleted when
 * the JVM exits. PostgreSQL refuses to run as root, so a root JVM runs {@code initdb} and
 * {@code pg_ctl} as the {@code postgres} user ({@code runuser}), in a directory it owns.
 */
final class PostgresProcess {

	private final Path bin;

	private final Path directory;

	private final int port;

	private PostgresProcess(Path bin, Path directory, int port) {
		this.bin = bin;
		this.directory = directory;
		this.port = port;
	}

	static PostgresProcess start() {
		Path bin = binaries();
		try {
			Path directory = Files.createTempDirectory("lockable-postgres-");
			Files.createDirectories(directory.resolve("socket"));
			if (isRoot()) {
				run(List.of("chown", "-R", PostgresTestServer.USER + ":", directory.toString()), directory, false);
			}
			run(List.of(bin.resolve("initdb").toString(), "-D", directory.resolve("data").toString(), "-U",
					PostgresTestServer.USER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"), directory, true);
			PostgresProcess server = new PostgresProcess(bin, directory, freeLoopbackPort());
			server.pgCtlStart();
			Runtime.getRuntime().addShutdownHook(new Thread(server::destroy, "postgres-test-server-stop"));
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void pgCtlStart() throws IOException {
		run(List.of(this.bin.resolve("pg_ctl").toString(), "-D", this.directory.resolve("data").toString(), "-l",
				this.directory.resolve("server.log").toString(), "-w", "-t", "60", "-o",
				"-c listen_addresses=127.0.0.1 -p " + this.port + " -k " + this.directory.resolve("socket")
						+ " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
				"start"),
				this.directory, true);
	}

	/** {@code initdb} and {@code pg_ctl} of the newest installed version, 15 preferred. */
	private static Path binaries() {
		Path preferred = Paths.get("/usr/lib/postgresql/15/bin");
		if (Files.isExecutable(preferred.resolve("initdb"))) {
			return preferred;
		}
		Path root = Paths.get("/usr/lib/postgresql");
		if (Files.isDirectory(root)) {
			try (Stream<Path> versions = Files.list(root)) {
				Path found = versions.map((version) -> version.resolve("bin"))
					.filter((candidate) -> Files.isExecutable(candidate.resolve("initdb"))
							&& Files.isExecutable(candidate.resolve("pg_ctl")))
					.max(Comparator.comparing(Path::toString))
					.orElse(null);
				if (found != null) {
					return found;
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		throw new IllegalStateException("The JDBC store's tests need a PostgreSQL server and found no initdb and "
				+ "pg_ctl under /usr/lib/postgresql/<version>/bin. Install Debian's package: "
				+ "'apt-get install -y postgresql' (sudo if not root); the tests start their own server from it.");
	}

	private static boolean isRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	/** Runs a command, as the {@code postgres} user if asked and this JVM is root. */
	private static void run(List<String> command, Path directory, boolean asPostgres) throws IOException {
		List<String> full = new ArrayList<>();
		if (asPostgres && isRoot()) {
			full.addAll(List.of("runuser", "-u", PostgresTestServer.USER, "--"));
		}
		full.addAll(command);
		Path output = Files.createTempFile("lockable-postgres-command-", ".log");
		try {
			Process process = new ProcessBuilder(full).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			if (!process.waitFor(90, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException("Timed out: " + String.join(" ", full) + "\n" + read(output));
			}
			if (process.exitValue() != 0) {
				Path log = directory.resolve("server.log");
				throw new IllegalStateException("Failed (exit " + process.exitValue() + "): " + String.join(" ", full)
						+ "\n" + read(output) + (Files.exists(log) ? "\nserver.log:\n" + read(log) : ""));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted: " + String.join(" ", full), ex);
		}
		finally {
			Files.deleteIfExists(output);
		}
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
		return DatabaseAddress.of("postgresql", "127.0.0.1", this.port);
	}

	/**
	 * Stops the server as an administrator would ({@code pg_ctl stop -m fast}): its
	 * connections are cut, its data kept.
	 */
	synchronized void stop() {
		try {
			run(List.of(this.bin.resolve("pg_ctl").toString(), "-D", this.directory.resolve("data").toString(), "-m",
					"fast", "-w", "stop"), this.directory, true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Starts the stopped server again, on its port and data. */
	synchronized void restart() {
		try {
			pgCtlStart();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void destroy() {
		try {
			run(List.of(this.bin.resolve("pg_ctl").toString(), "-D", this.directory.resolve("data").toString(), "-m",
					"immediate", "-w", "stop"), this.directory, true);
		}
		catch (IOException | RuntimeException ex) {
			// stopped already, or the JVM exits anyway; the directory stays for a look at server.log
			if (Files.exists(this.directory.resolve("data").resolve("postmaster.pid"))) {
				return;
			}
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
		return "PostgreSQL " + this.bin.getParent().getFileName() + " on 127.0.0.1:" + this.port;
	}

}
