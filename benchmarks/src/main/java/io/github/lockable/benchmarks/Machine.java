package io.github.lockable.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.github.lockable.test.redis.RedisTestServer;

/**
 * What a results file says about where it was measured, read from this machine.
 */
final class Machine {

	private Machine() {
	}

	static int cores() {
		return Runtime.getRuntime().availableProcessors();
	}

	/**
	 * The first {@code model name} of {@code /proc/cpuinfo}.
	 */
	static String cpuModel() {
		try {
			return Files.readAllLines(Path.of("/proc/cpuinfo"))
				.stream()
				.filter((line) -> line.startsWith("model name"))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse("unknown");
		}
		catch (IOException ex) {
			return "unknown (" + ex.getMessage() + ")";
		}
	}

	/**
	 * The 1, 5 and 15 minute load averages of {@code /proc/loadavg}.
	 */
	static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * What {@code java -version} of the running JVM prints.
	 */
	static String javaVersion() {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		try {
			Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			process.waitFor(10, TimeUnit.SECONDS);
			return output;
		}
		catch (IOException ex) {
			return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return System.getProperty("java.runtime.version");
		}
	}

	static String redisVersion(RedisTestServer redis) {
		return redis.commands()
			.info("server")
			.lines()
			.filter((line) -> line.startsWith("redis_version:"))
			.map((line) -> line.substring("redis_version:".length()).trim())
			.findFirst()
			.orElse("unknown") + " (" + redis.description() + ")";
	}

	/**
	 * The Redis server's CPU time so far, user and system, from {@code INFO cpu}.
	 * @return microseconds
	 */
	static long redisCpuMicros(RedisTestServer redis) {
		double seconds = redis.commands()
			.info("cpu")
			.lines()
			.filter((line) -> line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:"))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.indexOf(':') + 1).trim()))
			.sum();
		return Math.round(seconds * 1_000_000);
	}

	/**
	 * The command that started this JVM, with its JVM options.
	 */
	static String command(Class<?> main, String[] args) {
		StringBuilder command = new StringBuilder("java");
		for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
			command.append(' ').append(option);
		}
		command.append(" -cp benchmarks/target/benchmarks.jar ").append(main.getName());
		for (String arg : args) {
			command.append(' ').append(arg);
		}
		return command.toString();
	}

	/**
	 * An artifact's version, as Maven resolved it for this build (the list the build
	 * writes with {@code dependency:list}).
	 */
	static String version(String groupId, String artifactId) {
		String prefix = groupId + ":" + artifactId + ":jar:";
		try (InputStream in = Machine.class.getResourceAsStream("/META-INF/lockable-benchmarks/dependencies.txt")) {
			if (in == null) {
				return "?";
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
				.map(String::trim)
				.filter((line) -> line.startsWith(prefix))
				.map((line) -> line.substring(prefix.length()).split("[\\s:]")[0])
				.findFirst()
				.orElse("?");
		}
		catch (IOException ex) {
			return "?";
		}
	}

}
