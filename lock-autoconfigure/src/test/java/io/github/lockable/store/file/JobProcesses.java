package io.github.lockable.store.file;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts {@link FileLockJob} processes with the current {@code java} and class path, each
 * with its stdout and stderr in files, and kills whatever is left on {@link #close()}.
 */
final class JobProcesses implements AutoCloseable {

	static final Duration TIMEOUT = Duration.ofSeconds(30);

	/** Cheap start: most of a job process's life is JVM start-up. */
	private static final List<String> JVM_OPTIONS = List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xss512k",
			"-XX:+UseSerialGC", "-Xmx64m", "-XX:-UsePerfData",
			"-Dslf4j.provider=" + StderrLogging.class.getName());

	private final Path outputDirectory;

	private final List<Job> jobs = new CopyOnWriteArrayList<>();

	private final AtomicInteger counter = new AtomicInteger();

	JobProcesses(Path outputDirectory) {
		this.outputDirectory = outputDirectory;
	}

	/**
	 * Starts a job process.
	 * @param arguments the arguments of {@link FileLockJob#main}
	 * @return the job
	 */
	Job start(String... arguments) {
		return start(Map.of(), FileLockJob.class, arguments);
	}

	/**
	 * Starts a process running another main class, with more environment variables.
	 * @param environment variables to set
	 * @param main the main class
	 * @param arguments its arguments
	 * @return the job
	 */
	Job start(Map<String, String> environment, Class<?> main, String... arguments) {
		return start(List.of(), environment, main, arguments);
	}

	/**
	 * Starts a process through a command that changes how it runs, such as
	 * {@code setpriv}.
	 * @param prefix the command and its arguments before {@code java}
	 * @param environment variables to set
	 * @param main the main class
	 * @param arguments its arguments
	 * @return the job
	 */
	Job start(List<String> prefix, Map<String, String> environment, Class<?> main, String... arguments) {
		return start(prefix, environment, System.getProperty("java.class.path"), main, arguments);
	}

	/**
	 * Starts a job process whose class path lacks Reactor, as an application without it
	 * runs.
	 * @param arguments the arguments of {@link FileLockJob#main}
	 * @return the job
	 */
	Job startWithoutReactor(String... arguments) {
		String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !entry.contains(File.separator + "io" + File.separator + "projectreactor" + File.separator))
			.collect(Collectors.joining(File.pathSeparator));
		return start(List.of(), Map.of(), classPath, FileLockJob.class, arguments);
	}

	private Job start(List<String> prefix, Map<String, String> environment, String classPath, Class<?> main,
			String... arguments) {
		List<String> command = new ArrayList<>(prefix);
		command.add(ProcessHandle.current().info().command().orElseThrow());
		command.addAll(JVM_OPTIONS);
		command.add("-cp");
		command.add(classPath);
		command.add(main.getName());
		command.addAll(List.of(arguments));
		int number = this.counter.incrementAndGet();
		Path stdout = this.outputDirectory.resolve("job-" + number + ".out");
		Path stderr = this.outputDirectory.resolve("job-" + number + ".err");
		try {
			Files.createDirectories(this.outputDirectory);
			ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile())
				.redirectError(stderr.toFile());
			builder.environment().putAll(environment);
			Process process = builder.start();
			Job job = new Job(process, stdout, stderr);
			this.jobs.add(job);
			return job;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Runs a job process to its end.
	 * @param arguments the arguments of {@link FileLockJob#main}
	 * @return what it printed
	 */
	String run(String... arguments) {
		return start(arguments).awaitExit();
	}

	@Override
	public void close() {
		for (Job job : this.jobs) {
			job.process().destroyForcibly();
		}
		for (Job job : this.jobs) {
			try {
				job.process().waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/**
	 * A job process.
	 *
	 * @param process the process
	 * @param stdout its standard output
	 * @param stderr its standard error, for diagnostics
	 */
	record Job(Process process, Path stdout, Path stderr) {

		/**
		 * Waits until the job printed its answer line, without waiting for it to exit.
		 * @return the line
		 */
		String awaitAnswer() {
			await().atMost(TIMEOUT)
				.pollInterval(Duration.ofMillis(10))
				.failFast("job exited without an answer", () -> !this.process.isAlive() && read().isEmpty())
				.until(() -> read().endsWith("\n"));
			return read().strip();
		}

		/**
		 * Waits until the job exited successfully.
		 * @return its answer line
		 */
		String awaitExit() {
			try {
				assertThat(this.process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("job exited in time")
					.isTrue();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			assertThat(this.process.exitValue()).as("exit code; stderr: %s", errors()).isZero();
			return read().strip();
		}

		String errors() {
			return readFile(this.stderr);
		}

		private String read() {
			return readFile(this.stdout);
		}

		private static String readFile(Path file) {
			try {
				return Files.readString(file, StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				return "";
			}
		}

	}

}
