package io.github.lockable.test.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.lang.Nullable;

/**
 * A {@code redis-server} process the harness starts on a free loopback port, without
 * persistence, and stops when the JVM exits. Extra configuration, if any, goes into a
 * {@code redis.conf} of its own directory, read before the command-line arguments.
 * <p>
 * Fault tests take one of their own with {@link #startDedicated()}, so that stopping,
 * freezing or restarting it never disturbs the server the other tests share: its
 * {@link #pid()}, {@link #freeze()} ({@code SIGSTOP}) and {@link #thaw()} ({@code SIGCONT}),
 * {@link #stop()} and {@link #start()} on the same port (a new process, so an empty
 * script cache).
 * <p>
 * A test class that registers its server as an extension ({@code @RegisterExtension} on
 * a static field) gets it {@linkplain #recover() back} after each test, in case the test
 * stopped or froze it, and stopped for good after the class.
 */
public final class ProcessRedisServer extends RedisTestServer
		implements AutoCloseable, AfterEachCallback, AfterAllCallback {

	private final Path binary;

	private final String origin;

	private final Path directory;

	private final List<String> configuration;

	@Nullable
	private final RedisCredentials admin;

	private int port;

	private RedisProcess process;

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
		this.directory = RedisProcess.temporaryDirectory("lockable-redis-");
	}

	/**
	 * Starts a server of the test's own from {@link RedisBinaries#server()}
	 * ({@code LOCKABLE_TEST_REDIS_BIN}, else {@code redis-server} on the {@code PATH}, else
	 * the binary of embedded-redis), whatever server the other tests share.
	 * @return the running server; the caller closes it
	 */
	public static ProcessRedisServer startDedicated() {
		ProcessRedisServer server = createDedicated();
		server.start();
		return server;
	}

	/**
	 * A server of the test's own that is not started yet, on a port chosen now: a test of
	 * an application that starts while Redis is down points the application at {@link #port()}
	 * and calls {@link #start()} later.
	 * @return the server, not running; the caller closes it
	 */
	public static ProcessRedisServer createDedicated() {
		ProcessRedisServer server = RedisTestServers.newProcessServer();
		synchronized (server) {
			server.port = RedisTestServers.freeLoopbackPort();
		}
		return server;
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
		List<String> arguments = new ArrayList<>();
		if (!this.configuration.isEmpty()) {
			// redis-server reads a configuration file only as its first argument
			arguments.add(writeConfiguration().toString());
		}
		arguments.addAll(RedisProcess.serverArguments(port));
		arguments.add("--dir");
		arguments.add(this.directory.toString());
		this.process = RedisProcess.start(this.binary, this.directory, port, arguments);
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
		if (this.process.isAlive()) {
			// A frozen process ignores SIGTERM until it runs again.
			thaw();
		}
		this.process.stop();
		this.process = null;
	}

	@Override
	void shutdown() {
		stop();
		RedisProcess.deleteDirectory(this.directory);
	}

	/**
	 * Stops the server for good.
	 */
	@Override
	public void close() {
		shutdown();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		recover();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		close();
	}

	/**
	 * The process id of the running server.
	 * @return the pid
	 * @throws IllegalStateException if the server is not running
	 */
	public synchronized long pid() {
		if (!isRunning()) {
			throw new IllegalStateException("redis-server is not running");
		}
		return this.process.pid();
	}

	/**
	 * Freezes the process ({@code SIGSTOP}): the kernel still accepts connections and
	 * buffers what clients send, and the server runs it all after {@link #thaw()}.
	 */
	public void freeze() {
		signal("STOP");
	}

	/**
	 * Lets a frozen process run again ({@code SIGCONT}).
	 */
	public void thaw() {
		signal("CONT");
	}

	/**
	 * Thaws a frozen server before stopping it: a stopped process ignores {@code SIGTERM}
	 * until it runs again.
	 */
	@Override
	public synchronized void recover() {
		if (isRunning()) {
			thaw();
		}
		super.recover();
	}

	private void signal(String name) {
		String pid = Long.toString(pid());
		try {
			Process kill = new ProcessBuilder("kill", "-" + name, pid).redirectErrorStream(true).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + name + " " + pid + " failed: "
						+ new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run kill: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling redis-server", ex);
		}
	}

}
