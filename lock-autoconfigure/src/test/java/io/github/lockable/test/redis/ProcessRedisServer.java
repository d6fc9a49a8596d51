package io.github.lockable.test.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.lang.Nullable;

/**
 * A {@code redis-server} process the harness starts on a free loopback port, without
 * persistence, and stops when the JVM exits. Extra configuration, if any, goes into a
 * {@code redis.conf} of its own directory, read before the command-line arguments.
 */
final class ProcessRedisServer extends RedisTestServer {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

	private final Path binary;

	private final String origin;

	private final Path directory;

	private final List<String> configuration;

	@Nullable
	private final RedisCredentials admin;

	private int port;

	private Process process;

	ProcessRedisServer(Path binary, String origin) {
		this(binary, origin, List.of(), null);
	}

	/**
	 * A server with extra configuration.
	 * @param configuration lines of {@code redis.conf}, such as {@code requirepass s3cret}
	 * @param admin who the harness's own connection logs in as, or {@code null} for the
	 * default user without password
	 */
	ProcessRedisServer(Path binary, String origin, List<String> configuration, @Nullable RedisCredentials admin) {
		this.binary = binary;
		this.origin = origin;
		this.configuration = List.copyOf(configuration);
		this.admin = admin;
		try {
			this.directory = Files.createTempDirectory("lockable-redis-");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot create a directory for redis-server", ex);
		}
	}

	@Override
	@Nullable
	public RedisCredentials admin() {
		return this.admin;
	}

	@Override
	public String host() {
		return "127.0.0.1";
	}

	@Override
	public synchronized int port() {
		return this.port;
	}

	@Override
	public String description() {
		return this.origin + " (" + this.binary + ")";
	}

	@Override
	public boolean supportsRestart() {
		return true;
	}

	@Override
	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	@Override
	public synchronized void start() {
		if (isRunning()) {
			return;
		}
		RuntimeException failure = null;
		// A fresh port can be taken between probing and binding: try a few.
		for (int attempt = 0; attempt < 3; attempt++) {
			int candidate = (this.port != 0 && attempt == 0) ? this.port : RedisTestServers.freeLoopbackPort();
			try {
				launch(candidate);
				this.port = candidate;
				return;
			}
			catch (RuntimeException ex) {
				failure = ex;
				if (this.port != 0) {
					// Restarts keep their port: clients are configured with it.
					break;
				}
			}
		}
		throw failure;
	}

	private void launch(int port) {
		List<String> command = new ArrayList<>();
		command.add(this.binary.toString());
		if (!this.configuration.isEmpty()) {
			command.add(writeConfiguration().toString());
		}
		command.addAll(redisServerArguments(port));
		command.add("--dir");
		command.add(this.directory.toString());
		Path log = this.directory.resolve("redis-" + port + ".log");
		Process started;
		try {
			started = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + this.binary + ": " + ex.getMessage(), ex);
		}
		try {
			RedisTestServers.awaitPing(host(), port, STARTUP_TIMEOUT, started::isAlive);
		}
		catch (RuntimeException ex) {
			started.destroyForcibly();
			throw new IllegalStateException(ex.getMessage() + "; its output: " + tail(log), ex);
		}
		this.process = started;
	}

	private Path writeConfiguration() {
		Path file = this.directory.resolve("redis.conf");
		try {
			Files.write(file, this.configuration, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot write " + file, ex);
		}
		return file;
	}

	@Override
	public synchronized void stop() {
		closeAdminConnection();
		if (this.process == null) {
			return;
		}
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
		this.process = null;
	}

	@Override
	void shutdown() {
		stop();
	}

	private static String tail(Path log) {
		try {
			String content = Files.readString(log, StandardCharsets.UTF_8);
			return content.substring(Math.max(0, content.length() - 2000));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

}
