package io.github.lockable.sample.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;

import io.github.lockable.sample.SampleApplication;

import static org.awaitility.Awaitility.await;

/**
 * The sample application in a JVM of its own, started from the test class path with the
 * {@code load-check} profile, listening on a free loopback port. Its output goes to a log
 * file, read for its port and for what it logged.
 */
final class SampleInstance implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(5);

	private final Process process;

	private final Path log;

	private URI uri;

	private SampleInstance(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	/**
	 * Starts an instance; {@link #awaitReady()} waits for it.
	 * @param log where its output goes
	 * @param arguments the application's arguments, after the ones every instance gets
	 * @return the starting instance
	 */
	static SampleInstance start(Path log, List<String> arguments) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		// Few compiler and GC threads: the machine is shared with the other instance, Redis and the load.
		command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(SampleApplication.class.getName());
		command.addAll(List.of("--spring.profiles.active=redis,load-check", "--server.address=127.0.0.1",
				"--server.port=0", "--sample.report.initial-delay=1h", "--spring.main.banner-mode=off"));
		command.addAll(arguments);
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			return new SampleInstance(process, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the sample application", ex);
		}
	}

	/**
	 * Waits until the instance says it is ready, or fails with its output.
	 * @return this instance
	 */
	SampleInstance awaitReady() {
		try {
			await().atMost(STARTUP_TIMEOUT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> port().isPresent() || !this.process.isAlive());
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException("The sample application did not start within " + STARTUP_TIMEOUT
					+ "; its output:\n" + tail(), ex);
		}
		int port = port().orElseThrow(() -> new IllegalStateException(
				"The sample application exited with " + this.process.exitValue() + "; its output:\n" + tail()));
		this.uri = URI.create("http://127.0.0.1:" + port);
		return this;
	}

	/**
	 * The instance's base URI.
	 * @return {@code http://127.0.0.1:<port>}
	 */
	URI uri() {
		return this.uri;
	}

	/**
	 * The lines the instance printed so far that contain the given text.
	 * @param text what to look for
	 * @return the matching lines
	 */
	List<String> linesContaining(String text) {
		return output().lines().filter((line) -> line.contains(text)).toList();
	}

	private Optional<Integer> port() {
		return output().lines()
			.filter((line) -> line.startsWith(LoadCheckKeys.READY))
			.findFirst()
			.map((line) -> Integer.valueOf(line.substring(LoadCheckKeys.READY.length()).trim()));
	}

	private String output() {
		try {
			return Files.readString(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

	private String tail() {
		String output = output();
		return output.substring(Math.max(0, output.length() - 4000));
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

}
