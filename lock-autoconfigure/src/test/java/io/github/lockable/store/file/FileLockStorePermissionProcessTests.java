package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Permission denied, for real, even where the tests run as root: the job runs in a
 * separate process, and when this JVM is root that process is root without the
 * capabilities that bypass file permissions ({@code setpriv --bounding-set
 * -dac_override,-dac_read_search}), so the kernel refuses it like any other user. The
 * store must answer a loud EACCES failure, never "held" and never a skip.
 */
class FileLockStorePermissionProcessTests {

	private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

	@TempDir
	Path temp;

	private final List<Path> restore = new ArrayList<>();

	@AfterEach
	void restorePermissions() throws IOException {
		for (Path directory : this.restore) {
			Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
		}
	}

	@Test
	void readOnlyLockDirectoryIsEACCES() throws Exception {
		Path locks = Files.createDirectory(this.temp.resolve("locks"));
		readOnly(locks);
		assertThat(runJob(locks)).isEqualTo("failed EACCES");
	}

	@Test
	void lockDirectoryUnderAReadOnlyParentIsEACCES() throws Exception {
		Path parent = Files.createDirectory(this.temp.resolve("parent"));
		readOnly(parent);
		assertThat(runJob(parent.resolve("locks"))).isEqualTo("failed EACCES");
	}

	@Test
	void unprivilegedJobStillRunsWhereItMayWrite() throws Exception {
		assertThat(runJob(this.temp.resolve("writable"))).isEqualTo("started");
	}

	private void readOnly(Path directory) throws IOException {
		assumeTrue(DirectorySafety.isPosix(directory), "the file system has no POSIX permissions");
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-x------"));
		this.restore.add(directory);
	}

	private String runJob(Path locks) throws Exception {
		List<String> command = new ArrayList<>();
		if (ROOT) {
			assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")),
					"running as root without setpriv (util-linux) to drop the permission override");
			command.addAll(List.of("/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"));
		}
		command.add(ProcessHandle.current().info().command().orElseThrow());
		command.addAll(List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m",
				"-Dslf4j.provider=" + StderrLogging.class.getName(), "-cp", System.getProperty("java.class.path"),
				FileLockJob.class.getName(), locks.toString(), "job", "30000", "0"));
		Path output = this.temp.resolve("job.out");
		Path errors = this.temp.resolve("job.err");
		Process process = new ProcessBuilder(command).redirectOutput(output.toFile())
			.redirectError(errors.toFile())
			.start();
		try {
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("job exited in time").isTrue();
		}
		finally {
			process.destroyForcibly();
		}
		assertThat(process.exitValue()).as("exit code; stderr: %s", Files.readString(errors)).isZero();
		return Files.readString(output, StandardCharsets.UTF_8).strip();
	}

}
