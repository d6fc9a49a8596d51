package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A file operation that fails is a store failure with its errno name: acquire answers
 * {@link AcquireResult.Failed}, never held; release and extend throw.
 */
class FileLockStoreFailureTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

	@TempDir
	Path temp;

	private Path restoreWritable;

	@AfterEach
	void restorePermissions() throws IOException {
		if (this.restoreWritable != null) {
			Files.setPosixFilePermissions(this.restoreWritable, PosixFilePermissions.fromString("rwx------"));
		}
	}

	@Test
	void directoryThroughARegularFileIsENOTDIR() throws IOException {
		Path file = Files.writeString(this.temp.resolve("regular"), "not a directory");
		assertFailsEverywhere(new FileLockStore(file.resolve("locks")), "ENOTDIR");
	}

	@Test
	void directoryThatIsARegularFileIsENOTDIR() throws IOException {
		Path file = Files.writeString(this.temp.resolve("regular"), "not a directory");
		assertFailsEverywhere(new FileLockStore(file), "ENOTDIR");
		assertThat(Files.readString(file)).isEqualTo("not a directory");
	}

	@Test
	void directoryThatCannotBeCreatedIsAFailureEvenForRoot() {
		assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc, where nobody can create directories");
		assertFailsEverywhere(new FileLockStore(Path.of("/proc/lockable-" + UUID.randomUUID() + "/locks")), "ENOENT");
	}

	@Test
	void directoryUnderAReadOnlyParentIsEACCES() throws IOException {
		Path parent = Files.createDirectory(this.temp.resolve("read-only-parent"));
		makeReadOnly(parent);
		assumeFalse(ROOT, "running as root, which may write to any directory: EACCES cannot happen");
		assertFailsEverywhere(new FileLockStore(parent.resolve("locks")), "EACCES");
	}

	@Test
	void readOnlyLockDirectoryIsEACCES() throws IOException {
		Path directory = this.temp.resolve("locks");
		FileLockStore store = new FileLockStore(directory);
		((AcquireResult.Acquired) store.acquire(new LockRequest("before", TTL))).handle().release();
		makeReadOnly(directory);
		assumeFalse(ROOT, "running as root, which may write to any directory: EACCES cannot happen");
		AcquireResult result = store.acquire(new LockRequest("after", TTL));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("EACCES");
	}

	@Test
	void errnoNamesComeFromTheExceptionOrTheSystemMessage() {
		assertThat(ErrorCodes.of(new AccessDeniedException("/x"))).isEqualTo("EACCES");
		assertThat(ErrorCodes.of(new NoSuchFileException("/x"))).isEqualTo("ENOENT");
		assertThat(ErrorCodes.of(new NotDirectoryException("/x"))).isEqualTo("ENOTDIR");
		// as sun.nio.fs.UnixException and the channel write report them
		assertThat(ErrorCodes.of(new FileSystemException("/x/y", null, "Not a directory"))).isEqualTo("ENOTDIR");
		assertThat(ErrorCodes.of(new FileSystemException("/x", null, "Read-only file system"))).isEqualTo("EROFS");
		assertThat(ErrorCodes.of(new IOException("No space left on device"))).isEqualTo("ENOSPC");
		assertThat(ErrorCodes.of(new IOException("Disk quota exceeded"))).isEqualTo("EDQUOT");
		assertThat(ErrorCodes.of(new FileSystemException("/x", null, "Operation not permitted"))).isEqualTo("EPERM");
		assertThat(ErrorCodes.of(new IOException("Plattenplatz erschöpft"))).isEqualTo("STORE_ERROR");
		assertThat(ErrorCodes.of(new IOException())).isEqualTo("STORE_ERROR");
	}

	@Test
	void fullDeviceIsENOSPC() {
		assumeTrue(Files.isWritable(Path.of("/dev/full")), "needs /dev/full");
		IOException full = new IOException("unexpected success");
		try (var channel = Files.newByteChannel(Path.of("/dev/full"), java.nio.file.StandardOpenOption.WRITE)) {
			channel.write(java.nio.ByteBuffer.wrap(new byte[1]));
		}
		catch (IOException ex) {
			full = ex;
		}
		assertThat(ErrorCodes.of(full)).isEqualTo("ENOSPC");
	}

	private void makeReadOnly(Path directory) throws IOException {
		assumeTrue(FilePermissions.isPosix(directory), "the file system has no POSIX permissions");
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-x------"));
		this.restoreWritable = directory;
	}

	private static void assertFailsEverywhere(FileLockStore store, String code) {
		AcquireResult result = store.acquire(new LockRequest("job", TTL));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo(code);
		LockLease lease = new LockLease("job", UUID.randomUUID().toString(), Instant.now(), TTL);
		assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> store.release(lease))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(code));
		assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> store.extend(lease, TTL))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(code));
		assertThat(store.acquireAsync(new LockRequest("job", TTL)).toCompletableFuture().join())
			.isInstanceOf(AcquireResult.Failed.class);
	}

}
