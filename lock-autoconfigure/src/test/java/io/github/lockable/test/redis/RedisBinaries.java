package io.github.lockable.test.redis;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.util.ClassUtils;

/**
 * The {@code redis-server} the harness starts processes of its own from (a test's
 * dedicated or configured server, each Cluster node, each Sentinel data node and
 * sentinel), first match wins: {@value RedisTestServers#BIN_VARIABLE} when its
 * {@code redis-server} exists, else {@code redis-server} on the {@code PATH}, else the
 * binary inside the test-scoped {@code com.github.codemonstur:embedded-redis} jar.
 * {@value RedisTestServers#MODE_VARIABLE}{@code =embedded} or {@code =path} keeps to
 * that one way. Found once per JVM; the embedded binary is extracted once.
 */
final class RedisBinaries {

	/** A {@code redis-server} and where it came from, for logs and failure messages. */
	record Server(Path binary, String origin) {
	}

	private static final Pattern VERSION = Pattern.compile(" v=(\\d+)\\.");

	private static Server server;

	private static Path embedded;

	private static Integer majorVersion;

	private RedisBinaries() {
	}

	/**
	 * The {@code redis-server} for the harness's own processes.
	 * @return the binary
	 * @throws IllegalStateException when no way gives one, naming each way tried, why it
	 * failed, and how to get one
	 */
	static synchronized Server server() {
		if (server == null) {
			server = find(System::getenv, RedisBinaries::embeddedBinary);
		}
		return server;
	}

	/**
	 * Finds the binary; {@link #server()} with the environment and embedded-redis given.
	 * @param environment the environment variables
	 * @param embedded extracts the embedded binary, adding why it cannot to the list
	 * @return the binary
	 */
	static Server find(Function<String, String> environment, Function<List<String>, Path> embedded) {
		String mode = trimmed(environment.apply(RedisTestServers.MODE_VARIABLE));
		List<String> attempts = new ArrayList<>();
		String bin = trimmed(environment.apply(RedisTestServers.BIN_VARIABLE));
		if (bin != null) {
			Path binary = Path.of(bin, "redis-server");
			if (isExecutable(binary)) {
				return new Server(binary, "redis-server from " + RedisTestServers.BIN_VARIABLE);
			}
			attempts.add(RedisTestServers.BIN_VARIABLE + "=" + bin + " has no executable redis-server");
		}
		else {
			attempts.add(RedisTestServers.BIN_VARIABLE + " is not set");
		}
		if (!"embedded".equalsIgnoreCase(mode)) {
			Path binary = findOnPath(environment.apply("PATH"), "redis-server");
			if (binary != null) {
				return new Server(binary, "redis-server from PATH");
			}
			attempts.add("no redis-server on the PATH");
		}
		else {
			attempts.add(RedisTestServers.MODE_VARIABLE + "=embedded: the PATH is not searched");
		}
		if (!"path".equalsIgnoreCase(mode)) {
			Path binary = embedded.apply(attempts);
			if (binary != null) {
				return new Server(binary, "embedded-redis binary");
			}
		}
		else {
			attempts.add(RedisTestServers.MODE_VARIABLE + "=path: the embedded-redis binary is not tried");
		}
		throw new IllegalStateException("""
				No redis-server for the Redis processes the tests start themselves (a test's own server, \
				the Cluster and Sentinel nodes). Tried, in order:
				  - %s
				Get one of these:
				  - install Redis: sudo apt-get install redis-server (or brew install redis), so that redis-server is on the PATH
				  - set %s to the bin/ directory of a Redis or Valkey build
				  - keep com.github.codemonstur:embedded-redis on the test class path, on linux-amd64, \
				without %s=path
				A Docker engine or %s give the shared server only: these tests configure servers of their own.
				""".formatted(String.join("\n  - ", attempts), RedisTestServers.BIN_VARIABLE,
				RedisTestServers.MODE_VARIABLE, RedisTestServers.URL_VARIABLE));
	}

	/**
	 * The binary inside embedded-redis, extracted on first use.
	 * @param attempts where to say why there is none
	 * @return the binary, or {@code null}
	 */
	static synchronized Path embeddedBinary(List<String> attempts) {
		if (embedded != null) {
			return embedded;
		}
		if (!ClassUtils.isPresent("redis.embedded.core.ExecutableProvider", RedisBinaries.class.getClassLoader())) {
			attempts.add("com.github.codemonstur:embedded-redis is not on the test class path");
			return null;
		}
		File binary;
		try {
			binary = redis.embedded.core.ExecutableProvider.newJarResourceProvider().get();
		}
		catch (IOException | RuntimeException ex) {
			attempts.add("embedded-redis has no binary for this platform: " + ex);
			return null;
		}
		if (!binary.canExecute() && !binary.setExecutable(true)) {
			attempts.add("embedded-redis binary is not executable: " + binary);
			return null;
		}
		embedded = binary.toPath();
		return embedded;
	}

	/**
	 * The major version of {@link #server()} ({@code redis-server --version}:
	 * {@code Redis server v=6.2.11 ...}, Valkey's {@code Valkey server v=8.0.1 ...}).
	 * @return the major version, or {@link Integer#MAX_VALUE} when there is no binary or
	 * it cannot tell
	 */
	static synchronized int majorVersion() {
		if (majorVersion == null) {
			try {
				majorVersion = majorVersion(server().binary());
			}
			catch (IllegalStateException ex) {
				// Starting a server fails with the full story; no version to guess here.
				return Integer.MAX_VALUE;
			}
		}
		return majorVersion;
	}

	private static int majorVersion(Path binary) {
		try {
			Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
			Matcher version = VERSION.matcher(output);
			return version.find() ? Integer.parseInt(version.group(1)) : Integer.MAX_VALUE;
		}
		catch (IOException ex) {
			return Integer.MAX_VALUE;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Integer.MAX_VALUE;
		}
	}

	/**
	 * The {@code redis-cli} of {@link #server()}'s distribution: next to it, else on the
	 * {@code PATH}. The embedded-redis jar has none.
	 * @return the binary, or {@code null} when there is none
	 */
	static Path cli() {
		Path sibling = server().binary().resolveSibling("redis-cli");
		if (isExecutable(sibling)) {
			return sibling;
		}
		return findOnPath(System.getenv("PATH"), "redis-cli");
	}

	static Path findOnPath(String path, String name) {
		if (path == null) {
			return null;
		}
		for (String directory : path.split(File.pathSeparator)) {
			if (!directory.isEmpty() && isExecutable(Path.of(directory, name))) {
				return Path.of(directory, name);
			}
		}
		return null;
	}

	private static boolean isExecutable(Path binary) {
		return Files.isRegularFile(binary) && Files.isExecutable(binary);
	}

	private static String trimmed(String value) {
		return (value != null && !value.isBlank()) ? value.trim() : null;
	}

}
