package io.github.lockable.test.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.util.ClassUtils;

/**
 * Finds or starts a Redis server for tests, first match wins (see {@link RedisTestServer}).
 */
final class RedisTestServers {

	static final String URL_VARIABLE = "LOCKABLE_TEST_REDIS_URL";

	/** Restricts the search to one way: {@code url}, {@code bin}, {@code container}, {@code path} or {@code embedded}. */
	static final String MODE_VARIABLE = "LOCKABLE_TEST_REDIS_MODE";

	/**
	 * A directory holding the {@code redis-server} and {@code redis-cli} of the server to
	 * test, such as a build of another version: when set, every server the harness starts
	 * (the shared one, a test's own, the Cluster and Sentinel nodes) comes from there, and
	 * never from the {@code PATH} or embedded-redis.
	 */
	static final String BIN_VARIABLE = "LOCKABLE_TEST_REDIS_BIN";

	private static final Logger logger = LoggerFactory.getLogger(RedisTestServers.class);

	private RedisTestServers() {
	}

	static RedisTestServer startFirstAvailable() {
		String mode = System.getenv(MODE_VARIABLE);
		List<String> attempts = new ArrayList<>();
		if (mode != null && !mode.isBlank()) {
			attempts.add(MODE_VARIABLE + "=" + mode.trim() + ": no other way is tried");
		}
		String url = System.getenv(URL_VARIABLE);
		if (wanted(mode, "url")) {
			if (url != null && !url.isBlank()) {
				return announce(new ExternalRedisServer(URI.create(url.trim())));
			}
			attempts.add(URL_VARIABLE + " is not set");
		}
		Path bin = binDirectory();
		if (wanted(mode, "bin")) {
			if (bin != null) {
				Path binary = binaryIn(bin, "redis-server");
				RedisTestServer server = tryProcess(binary, "redis-server from " + BIN_VARIABLE, attempts);
				if (server != null) {
					return announce(server);
				}
				throw new IllegalStateException(BIN_VARIABLE + " names " + bin + ", whose redis-server did not start: "
						+ attempts);
			}
			attempts.add(BIN_VARIABLE + " is not set");
		}
		if (wanted(mode, "container")) {
			RedisTestServer container = tryContainer(attempts);
			if (container != null) {
				return announce(container);
			}
		}
		if (wanted(mode, "path")) {
			Path binary = RedisBinaries.findOnPath(System.getenv("PATH"), "redis-server");
			if (binary != null) {
				RedisTestServer server = tryProcess(binary, "redis-server from PATH", attempts);
				if (server != null) {
					return announce(server);
				}
			}
			else {
				attempts.add("no redis-server on the PATH");
			}
		}
		if (wanted(mode, "embedded")) {
			RedisTestServer server = tryEmbedded(attempts);
			if (server != null) {
				return announce(server);
			}
		}
		throw new IllegalStateException("""
				No Redis server for the tests. Tried, in order:
				  - %s
				Get one of these:
				  - install Redis: sudo apt-get install redis-server (or brew install redis), so that redis-server is on the PATH
				  - start a Docker engine, for a Testcontainers redis:7-alpine container
				  - point the tests at a server you run: export %s=redis://127.0.0.1:6379 (its data will be flushed)
				""".formatted(String.join("\n  - ", attempts), URL_VARIABLE));
	}

	/**
	 * Starts a server of a test's own from {@link RedisBinaries#server()}: never the URL or
	 * a container, whose configuration the harness does not own.
	 */
	static RedisTestServer startProcess(List<String> configuration, RedisCredentials admin) {
		RedisBinaries.Server binary = RedisBinaries.server();
		ProcessRedisServer server = new ProcessRedisServer(binary.binary(), binary.origin(), configuration, admin);
		try {
			server.start();
		}
		catch (RuntimeException ex) {
			server.shutdown();
			throw new IllegalStateException(binary.origin() + " (" + binary.binary() + ") did not start a server "
					+ "of a test's own: " + ex.getMessage(), ex);
		}
		Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "redis-test-server-shutdown"));
		return server;
	}

	private static boolean wanted(String mode, String candidate) {
		return mode == null || mode.isBlank() || mode.trim().equalsIgnoreCase(candidate);
	}

	private static RedisTestServer announce(RedisTestServer server) {
		logger.info("Tests use {}: {}", server, version(server));
		return server;
	}

	/**
	 * The server's name and version as {@code INFO server} gives them: {@code valkey 8.0.1}
	 * ({@code server_name} and {@code valkey_version}, where Valkey's {@code redis_version}
	 * says 7.2.4 for compatibility), else {@code redis 7.0.15}.
	 * @param server a running server
	 * @return its name and version, or why they are unknown
	 */
	static String version(RedisTopology server) {
		try {
			return version(server.masters().get(0).info("server"));
		}
		catch (RuntimeException ex) {
			return "version unknown (" + ex.getMessage() + ")";
		}
	}

	static String version(String info) {
		String name = infoField(info, "server_name");
		String own = (name != null) ? infoField(info, name + "_version") : null;
		return ((name != null) ? name : "redis") + " "
				+ ((own != null) ? own : String.valueOf(infoField(info, "redis_version")));
	}

	private static String infoField(String info, String field) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(field + ":")) {
				return line.substring(field.length() + 1).trim();
			}
		}
		return null;
	}

	private static RedisTestServer tryContainer(List<String> attempts) {
		if (!ClassUtils.isPresent("org.testcontainers.DockerClientFactory", RedisTestServers.class.getClassLoader())) {
			attempts.add("Testcontainers is not on the class path");
			return null;
		}
		try {
			if (!ContainerRedisServer.isDockerAvailable()) {
				attempts.add("Testcontainers: no Docker engine answers");
				return null;
			}
			return ContainerRedisServer.startContainer();
		}
		catch (RuntimeException | LinkageError ex) {
			attempts.add("Testcontainers: " + ex);
			return null;
		}
	}

	private static RedisTestServer tryEmbedded(List<String> attempts) {
		Path binary = RedisBinaries.embeddedBinary(attempts);
		return (binary != null) ? tryProcess(binary, "embedded-redis binary", attempts) : null;
	}

	/**
	 * A server process of a test's own, not started, from {@link RedisBinaries#server()}.
	 */
	static ProcessRedisServer newProcessServer() {
		RedisBinaries.Server binary = RedisBinaries.server();
		return new ProcessRedisServer(binary.binary(), binary.origin());
	}

	private static RedisTestServer tryProcess(Path binary, String origin, List<String> attempts) {
		try {
			ProcessRedisServer server = new ProcessRedisServer(binary, origin);
			server.start();
			return server;
		}
		catch (RuntimeException ex) {
			attempts.add(origin + " (" + binary + ") did not start: " + ex.getMessage());
			return null;
		}
	}

	/**
	 * The major version of the {@code redis-server} the harness starts servers of its own
	 * from ({@link RedisBinaries#server()}): 6 for the embedded-redis binary.
	 * @return the major version, or {@link Integer#MAX_VALUE} when it cannot tell
	 */
	static int localServerMajorVersion() {
		return RedisBinaries.majorVersion();
	}

	private static Path binDirectory() {
		String bin = System.getenv(BIN_VARIABLE);
		return (bin != null && !bin.isBlank()) ? Path.of(bin.trim()) : null;
	}

	private static Path binaryIn(Path bin, String name) {
		Path binary = bin.resolve(name);
		if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
			throw new IllegalStateException(BIN_VARIABLE + "=" + bin + " has no executable " + name
					+ ": point it at the bin/ directory of a Redis or Valkey build");
		}
		return binary;
	}

	static int freeLoopbackPort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException("No free loopback port", ex);
		}
	}

	/**
	 * Waits until a condition holds, asking every 100 ms; a condition that throws counts as
	 * not yet. The harness's own, so that the test jar needs no Awaitility.
	 * @param description what is awaited, for the failure message
	 * @param timeout how long to wait
	 * @param condition the condition
	 */
	static void awaitCondition(String description, Duration timeout, Callable<Boolean> condition) {
		long deadline = System.nanoTime() + timeout.toNanos();
		Exception lastProblem = null;
		while (true) {
			try {
				if (condition.call()) {
					return;
				}
			}
			catch (Exception ex) {
				lastProblem = ex;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Not " + description + " within " + timeout, lastProblem);
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting until " + description, ex);
			}
		}
	}

	/**
	 * Waits until the server answers PING, or fails.
	 * @param alive whether waiting still makes sense (the process is still there)
	 */
	static void awaitPing(String host, int port, Duration timeout, BooleanSupplier alive) {
		long deadline = System.nanoTime() + timeout.toNanos();
		String lastProblem = "no answer";
		while (System.nanoTime() < deadline) {
			if (!alive.getAsBoolean()) {
				throw new IllegalStateException("Redis server exited while starting");
			}
			try {
				if (ping(host, port)) {
					return;
				}
				lastProblem = "no PONG";
			}
			catch (IOException ex) {
				lastProblem = ex.toString();
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for Redis", ex);
			}
		}
		throw new IllegalStateException("Redis at " + host + ":" + port + " did not answer PING within " + timeout
				+ " (" + lastProblem + ")");
	}

	private static boolean ping(String host, int port) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 500);
			socket.setSoTimeout(500);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] answer = new byte[7];
			int read = 0;
			while (read < answer.length) {
				int n = in.read(answer, read, answer.length - read);
				if (n < 0) {
					break;
				}
				read += n;
			}
			// A server that wants a login first answers too: it is up.
			String reply = new String(answer, 0, read, StandardCharsets.US_ASCII);
			return reply.startsWith("+PONG") || reply.startsWith("-NOAUTH");
		}
		catch (java.net.SocketTimeoutException ex) {
			return false;
		}
	}

}
