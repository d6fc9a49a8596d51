package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The directory checks from the side of a user who is not root: the job runs as
 * {@code nobody} (uid 65534), keeping only the capability to read and search every
 * directory, so that it can load the class path under {@code /root}, but not to write
 * anywhere it could not. A symbolic link that root owns leads it to its own directory.
 */
class FileLockStoreOtherUserProcessTests {

	private static final int NOBODY = 65534;

	private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

	@TempDir
	Path temp;

	@Test
	void rootsSymbolicLinkToTheUsersOwnDirectoryIsFollowed() throws IOException {
		assumeTrue(ROOT && Files.isExecutable(Path.of("/usr/bin/setpriv")),
				"needs root and setpriv (util-linux) to run a job as another user");
		Files.setPosixFilePermissions(this.temp, PosixFilePermissions.fromString("rwx--x--x"));
		Path own = Files.createDirectory(this.temp.resolve("own"));
		Files.setAttribute(own, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
		Files.setAttribute(own, "unix:gid", NOBODY, LinkOption.NOFOLLOW_LINKS);
		Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));
		Path link = Files.createSymbolicLink(this.temp.resolve("link"), own);
		List<String> asNobody = List.of("/usr/bin/setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY,
				"--clear-groups", "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search", "--");
		try (JobProcesses processes = new JobProcesses(this.temp.resolve("out"))) {
			String answer = processes
				.start(asNobody, Map.of(), FileLockJob.class, link.resolve("locks").toString(), "job", "30000", "0")
				.awaitExit();
			assertThat(answer).isEqualTo("started");
		}
		assertThat(DirectorySafety.owner(own.resolve("locks"))).isEqualTo(NOBODY);
	}

}
