package io.github.lockable.test.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * One {@code redis-server} process (a server, a cluster node or a sentinel) listening on
 * a loopback port, its output in a log file of its directory.
 */
final class RedisProcess {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

	private final Path binary;

	private final Path directory;

	private final int port;

	private final Process process;

	private RedisProcess(Path binary, Path directory, int port, Process process) {
		this.binary = binary;
		this.directory = directory;
		this.port = port;
		this.process = process;
	}

	/**
	 * Starts the binary with the given arguments and waits until it answers PING.
	 * @param binary the redis-server binary
	 * @param directory the working directory and home of the log file
	 * @param port the port the arguments make it listen on, for PING
	 * @param arguments the command line after the binary
	 * @return the running process
	 */
	static RedisProcess start(Path binary, Path directory, int port, List<String> arguments) {
		List<String> command = new ArrayList<>();
		command.add(binary.toString());
		command.addAll(arguments);
		Path log = directory.resolve("redis-" + port + ".log");
		Process started;
		try {
			started = new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + binary + ": " + ex.getMessage(), ex);
		}
		try {
			RedisTestServers.awaitPing("127.0.0.1", port, STARTUP_TIMEOUT, started::isAlive);
		}
		catch (RuntimeException ex) {
			started.destroyForcibly();
			throw new IllegalStateException(ex.getMessage() + "; its output: " + tail(log), ex);
		}
		return new RedisProcess(binary, directory, port, started);
	}

	/**
	 * Starts a process on a free port; a port can be taken between probing and binding,
	 * so a few ports are tried.
	 * @param starter starts the process on the port it is given
	 * @return the running process
	 */
	static RedisProcess onFreePort(IntFunction<RedisProcess> starter) {
		RuntimeException failure = null;
		for (int attempt = 0; attempt < 3; attempt++) {
			try {
				return starter.apply(RedisTestServers.freeLoopbackPort());
			}
			catch (RuntimeException ex) {
				failure = ex;
			}
		}
		throw failure;
	}

	int port() {
		return this.port;
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	long pid() {
		return this.process.pid();
	}

	/**
	 * Stops the process (SIGTERM, then SIGKILL after 10 s).
	 */
	void stop() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

	@Override
	public String toString() {
		return this.binary + " on 127.0.0.1:" + this.port + " in " + this.directory;
	}

	static Path temporaryDirectory(String prefix) {
		try {
			return Files.createTempDirectory(prefix);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot create a directory for redis-server", ex);
		}
	}

	/**
	 * Deletes a directory the harness created, with everything in it.
	 */
	static void deleteDirectory(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Left in the temporary directory; nothing depends on it.
		}
	}

	/**
	 * Arguments common to every data node: loopback only, no persistence.
	 */
	static List<String> serverArguments(int port) {
		List<String> arguments = new ArrayList<>();
		arguments.add("--port");
		arguments.add(Integer.toString(port));
		arguments.add("--bind");
		arguments.add("127.0.0.1");
		arguments.add("--save");
		arguments.add("");
		arguments.add("--appendonly");
		arguments.add("no");
		return arguments;
	}

	/**
	 * Runs a command line tool such as {@code redis-cli} to its end.
	 * @param command the command line
	 * @param timeout how long it may take
	 * @return its output, standard error included
	 * @throws IllegalStateException when it fails or takes too long
	 */
	static String run(List<String> command, Duration timeout) {
		try {
			Path output = Files.createTempFile("lockable-redis-cli-", ".log");
			try {
				Process process = new ProcessBuilder(command).redirectErrorStream(true)
					.redirectOutput(output.toFile())
					.start();
				if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
					process.destroyForcibly();
					throw new IllegalStateException(command + " took more than " + timeout + ": " + tail(output));
				}
				if (process.exitValue() != 0) {
					throw new IllegalStateException(command + " failed (" + process.exitValue() + "): " + tail(output));
				}
				return Files.readString(output, StandardCharsets.UTF_8);
			}
			finally {
				Files.deleteIfExists(output);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + command + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + command, ex);
		}
	}

	static String tail(Path log) {
		try {
			String content = Files.readString(log, StandardCharsets.UTF_8);
			return content.substring(Math.max(0, content.length() - 2000));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

}
