package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A lock directory that another user could tamper with is refused when the store is
 * created, naming the path at fault and why. Giving files to another user (uid 65534,
 * {@code nobody}) needs root, as the tests run in CI; elsewhere those tests are skipped.
 */
class FileLockStoreUnsafeDirectoryTests {

	private static final int NOBODY = 65534;

	@TempDir
	Path temp;

	private Path real;

	@BeforeEach
	void ownDirectory() throws IOException {
		assumeTrue(DirectorySafety.isPosix(this.temp), "the file system has no POSIX permissions");
		this.real = Files.createDirectory(this.temp.resolve("real"));
		Files.setPosixFilePermissions(this.real, PosixFilePermissions.fromString("rwx------"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "rwxrwx---", "rwxrwxrwx", "rwx---rwx", "rwx-w----" })
	void directoryWritableByOthersIsRefused(String permissions) throws IOException {
		Files.setPosixFilePermissions(this.real, PosixFilePermissions.fromString(permissions));
		assertRefused(this.real, this.real + " is writable by its group or by others");
	}

	@Test
	void directoryOfAnotherUserIsRefused() throws IOException {
		giveToNobody(this.real);
		assertRefused(this.real, this.real + " is owned by uid " + NOBODY);
	}

	@Test
	void symbolicLinkOfAnotherUserToTheDirectoryIsRefused() throws IOException {
		Path link = Files.createSymbolicLink(this.temp.resolve("link"), this.real);
		giveToNobody(link);
		assertRefused(link, "the symbolic link " + link + " on its path is owned by uid " + NOBODY);
	}

	@Test
	void symbolicLinkOfAnotherUserHalfwayIsRefusedBeforeTheDirectoryExists() throws IOException {
		Path link = Files.createSymbolicLink(this.temp.resolve("link"), this.real);
		giveToNobody(link);
		assertRefused(link.resolve("not-yet/locks"), "the symbolic link " + link + " on its path");
		assertThat(this.real.resolve("not-yet")).doesNotExist();
	}

	@Test
	void symbolicLinkOfAnotherUserInsideALinkTargetIsRefused() throws IOException {
		Path inner = Files.createSymbolicLink(this.temp.resolve("inner"), this.real);
		giveToNobody(inner);
		Path outer = Files.createSymbolicLink(this.temp.resolve("outer"), Path.of("inner"));
		assertRefused(outer, "the symbolic link " + inner + " on its path");
	}

	@Test
	void ownDirectoryThroughOwnLinksIsAccepted() throws IOException {
		Path link = Files.createSymbolicLink(this.temp.resolve("link"), Path.of("real"));
		FileLockStore store = new FileLockStore(link.resolve("locks"));
		assertThat(Stages.join(store.acquire(new LockRequest("job", Duration.ofSeconds(30)))))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.real.resolve("locks/job.lock")).exists();
	}

	@Test
	void directoryThatTurnsUnsafeAfterTheStoreWasCreatedFailsEveryCall() throws IOException {
		Path locks = this.real.resolve("locks");
		FileLockStore store = new FileLockStore(locks);
		Files.createDirectory(locks, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		Files.setPosixFilePermissions(locks, PosixFilePermissions.fromString("rwxrwxrwx"));
		AcquireResult result = Stages.join(store.acquire(new LockRequest("job", Duration.ofSeconds(30))));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("UNSAFE_DIRECTORY");
		assertThat(((AcquireResult.Failed) result).cause()).hasMessageContaining(locks + " is writable");
	}

	private static void assertRefused(Path directory, String reason) {
		assertThatExceptionOfType(UnsafeLockDirectoryException.class)
			.isThrownBy(() -> new FileLockStore(directory))
			.withMessageContaining("Lock directory " + directory + " is unsafe")
			.withMessageContaining(reason)
			.satisfies((ex) -> assertThat(ex.getDirectory()).isEqualTo(directory));
	}

	private static void giveToNobody(Path file) {
		try {
			Files.setAttribute(file, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
		}
		catch (IOException | UnsupportedOperationException ex) {
			assumeTrue(false, "only root can give a file to another user: " + ex);
		}
	}

}
