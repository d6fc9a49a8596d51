package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server process that the tests start from {@link PostgresBinaries} (Debian's
 * package or zonky's embedded binaries) in a temporary directory, on a free loopback port,
 * with trust authentication and without fsync; stopped and deleted when the JVM exits.
 * PostgreSQL refuses to run as root, so a root JVM runs {@code initdb} and {@code pg_ctl}
 * as the {@code postgres} user, or {@code nobody} where there is none ({@code runuser}), in
 * a directory that user owns.
 */
final class PostgresProcess {

	private final PostgresBinaries binaries;

	private final Path bin;

	private final Path directory;

	private final int port;

	private final String osUser;

	private PostgresProcess(PostgresBinaries binaries, Path directory, int port, String osUser) {
		this.binaries = binaries;
		this.bin = binaries.bin();
		this.directory = directory;
		this.port = port;
		this.osUser = osUser;
	}

	/**
	 * Starts a server from some binaries.
	 * @param binaries the binaries
	 * @return the running server
	 * @throws IllegalStateException if it does not start, with its output
	 */
	static PostgresProcess start(PostgresBinaries binaries) {
		String osUser = osUser();
		try {
			Path directory = Files.createTempDirectory("lockable-postgres-");
			Files.createDirectories(directory.resolve("socket"));
			if (osUser != null) {
				run(List.of("chown", "-R", osUser + ":", directory.toString()), directory, null);
			}
			run(List.of(binaries.bin().resolve("initdb").toString(), "-D", directory.resolve("data").toString(), "-U",
					PostgresTestServer.USER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"), directory,
					osUser);
			PostgresProcess server = new PostgresProcess(binaries, directory, freeLoopbackPort(), osUser);
			server.pgCtlStart();
			Runtime.getRuntime().addShutdownHook(new Thread(server::destroy, "postgres-test-server-stop"));
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
		String user = ServerUsers.firstExisting(List.of("postgres", "nobody"));
		if (user == null) {
			throw new IllegalStateException("PostgreSQL refuses to run as root and this machine has neither a "
					+ "'postgres' nor a 'nobody' user: run the build as another user, or 'useradd postgres'");
		}
		return user;
	}

	private void pgCtlStart() throws IOException {
		run(List.of(this.bin.resolve("pg_ctl").toString(), "-D", this.directory.resolve("data").toString(), "-l",
				this.directory.resolve("server.log").toString(), "-w", "-t", "60", "-o",
				"-c listen_addresses=127.0.0.1 -p " + this.port + " -k " + this.directory.resolve("socket")
						+ " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
				"start"),
				this.directory, this.osUser);
	}

	/** Runs a command, as a user if one is given. */
	private static void run(List<String> command, Path directory, String osUser) throws IOException {
		List<String> full = new ArrayList<>();
		if (osUser != null) {
			full.addAll(List.of("runuser", "-u", osUser, "--"));
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
					"fast", "-w", "stop"), this.directory, this.osUser);
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
					"immediate", "-w", "stop"), this.directory, this.osUser);
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
		return this.binaries.description() + " on 127.0.0.1:" + this.port
				+ ((this.osUser != null) ? " as " + this.osUser : "");
	}

}
