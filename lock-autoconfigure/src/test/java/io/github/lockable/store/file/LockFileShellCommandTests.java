package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockRequest;
import io.github.lockable.test.Stages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The one-line command of {@code docs/lock-files.md} that lists the holders of a lock
 * directory, run as documented, with {@code /bin/sh} and {@code jq}, against a directory
 * where the store holds locks.
 * <p>
 * Tagged {@code host-tools}: jq is a tool of the host, not something the build can bring, so
 * the test runs with the long suites ({@code -Plong}), not in the default {@code ./mvnw verify}
 * that passes on a machine with only a JDK.
 */
@Tag("host-tools")
class LockFileShellCommandTests {

	/** The directory the documented command names, replaced by the test's. */
	private static final String DOCUMENTED_DIRECTORY = "/var/lib/app/locks";

	private static final Pattern FIRST_SH_BLOCK = Pattern.compile("```sh\\n(.*?)\\n```", Pattern.DOTALL);

	private static final long PID = ProcessHandle.current().pid();

	@TempDir
	Path temp;

	@Test
	void documentedCommandListsEveryHolderAndNoToken() throws Exception {
		assertThat(run("/bin/sh", "-c", "command -v jq").exit())
			.as("jq is not installed: install it (apt-get install jq) to run this test of docs/lock-files.md")
			.isZero();
		Path directory = this.temp.resolve("locks");
		FileLockStore store = new FileLockStore(directory);
		LockHandle report = acquired(store, "lockable:daily-report", new LockHolder("reports@build-01", PID,
				"DailyReport.run()"), Duration.ofSeconds(60));
		LockHandle export = acquired(store, "lockable:export/eu", new LockHolder("exports", PID,
				"NightlyExport.run(String)"), Duration.ofSeconds(60));
		LockHandle expired = acquired(store, "lockable:expired", new LockHolder("old", PID, "Old.run()"),
				Duration.ofMillis(1));
		await().atMost(Duration.ofSeconds(5)).until(expired::isExpired);

		String command = documentedCommand();
		assertThat(command).as("the documented command names %s", DOCUMENTED_DIRECTORY).contains(DOCUMENTED_DIRECTORY);
		Result result = run("/bin/sh", "-c", command.replace(DOCUMENTED_DIRECTORY, "\"$1\""), "sh",
				directory.toString());

		assertThat(result.exit()).as("exit status; stderr: %s", result.stderr()).isZero();
		List<List<String>> rows = Arrays.stream(result.stdout().split("\n"))
			.map((line) -> List.of(line.split("\t", -1)))
			.toList();
		assertThat(rows).hasSize(2);
		assertThat(rows).anySatisfy((row) -> assertThat(row).startsWith("lockable:daily-report", "reports@build-01",
				String.valueOf(PID), "DailyReport.run()"));
		assertThat(rows).anySatisfy((row) -> assertThat(row).startsWith("lockable:export/eu", "exports",
				String.valueOf(PID), "NightlyExport.run(String)"));
		assertThat(result.stdout()).doesNotContain(report.lease().token())
			.doesNotContain(export.lease().token())
			.doesNotContain(expired.lease().token());
		Stages.join(report.release());
		Stages.join(export.release());
	}

	private static LockHandle acquired(FileLockStore store, String key, LockHolder holder, Duration ttl) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, ttl, false, holder)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	/** The first {@code sh} block of docs/lock-files.md, found from the module up. */
	private static String documentedCommand() throws IOException {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path doc = dir.resolve("docs/lock-files.md");
			if (Files.isRegularFile(doc)) {
				Matcher block = FIRST_SH_BLOCK.matcher(Files.readString(doc));
				assertThat(block.find()).as("a ```sh block in %s", doc).isTrue();
				String command = block.group(1).strip();
				assertThat(command).as("one line").doesNotContain("\n");
				return command;
			}
		}
		throw new AssertionError("docs/lock-files.md not found above " + Path.of("").toAbsolutePath());
	}

	private static Result run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).start();
		process.getOutputStream().close();
		byte[] stdout = process.getInputStream().readAllBytes();
		byte[] stderr = process.getErrorStream().readAllBytes();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s ends", List.of(command)).isTrue();
		return new Result(process.exitValue(), new String(stdout, StandardCharsets.UTF_8).strip(),
				new String(stderr, StandardCharsets.UTF_8));
	}

	private record Result(int exit, String stdout, String stderr) {

	}

}
