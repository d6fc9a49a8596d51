package io.github.lockable.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import io.github.lockable.test.app.LockedRunnerApplication;


/**
 * {@code @Lockable} end to end across processes: three instances of a batch application
 * start at once on one host with the file store; exactly one runs the job, the others log
 * "skipped: already running" and exit normally.
 */
@Tag("slow") // application JVMs started side by side
class LockedRunnerProcessTests {

	private final List<Process> processes = new ArrayList<>();

	@TempDir
	private Path directory;

	@AfterEach
	void killLeftovers() throws InterruptedException {
		for (Process process : this.processes) {
			process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void exactlyOneInstanceRunsTheJob() throws Exception {
		Path locks = this.directory.resolve("locks");
		Path finish = this.directory.resolve("finish");
		List<Path> outputs = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			Path output = this.directory.resolve("instance-" + i + ".out");
			outputs.add(output);
			this.processes.add(new ProcessBuilder(javaCommand(locks, finish)).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start());
		}
		// The holder keeps the lock until told to finish; the others answer meanwhile.
		await().atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> count(outputs, "job: started") == 1 && count(outputs, "job: skipped") == 2);
		Files.createFile(finish);
		for (Process process : this.processes) {
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(process.exitValue()).isZero();
		}
		assertThat(count(outputs, "job: started")).isEqualTo(1);
		assertThat(count(outputs, "job: finished")).isEqualTo(1);
		assertThat(count(outputs, "job: skipped")).isEqualTo(2);
		assertThat(count(outputs, "NightlyJob.run(String[]) skipped: already running (lock lock:nightly-report on file, held for"))
			.isEqualTo(2);
		assertThat(count(outputs, "ERROR")).isZero();
	}

	private static List<String> javaCommand(Path locks, Path finish) {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElseThrow());
		command.addAll(List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"));
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(LockedRunnerApplication.class.getName());
		command.add(locks.toString());
		command.add(finish.toString());
		return command;
	}

	private static long count(List<Path> outputs, String text) {
		long count = 0;
		for (Path output : outputs) {
			try {
				count += Files.readString(output, StandardCharsets.UTF_8).lines().filter((line) -> line.contains(text)).count();
			}
			catch (IOException ex) {
				// not written yet
			}
		}
		return count;
	}

}
