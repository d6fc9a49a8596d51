package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
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

	private Path restoreMutable;

	@AfterEach
	void restorePermissions() throws Exception {
		if (this.restoreWritable != null) {
			Files.setPosixFilePermissions(this.restoreWritable, PosixFilePermissions.fromString("rwx------"));
		}
		if (this.restoreMutable != null) {
			chattr("-i", this.restoreMutable);
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
		Stages.join(((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest("before", TTL)))).handle().release());
		makeReadOnly(directory);
		assumeFalse(ROOT, "running as root, which may write to any directory: EACCES cannot happen");
		AcquireResult result = Stages.join(store.acquire(new LockRequest("after", TTL)));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("EACCES");
	}

	/**
	 * An immutable directory refuses changes even to root, so this runs where the
	 * permission tests above cannot: the lock that exists is still reported held, and
	 * everything that needs a change fails. Java names {@code EPERM} only by the C
	 * library's localized message, which the store does not learn: the code is the generic
	 * one.
	 */
	@Test
	void immutableLockDirectoryFailsEvenForRootButStillReportsHeldLocks() throws Exception {
		Path directory = this.temp.resolve("locks");
		FileLockStore store = new FileLockStore(directory);
		LockHandle held = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest("held", TTL)))).handle();
		assumeTrue(chattr("+i", directory), "needs chattr and a file system and user that may set it immutable");
		this.restoreMutable = directory;

		assertThat(Stages.join(store.acquire(new LockRequest("held", TTL)))).isInstanceOf(AcquireResult.Held.class);
		AcquireResult result = Stages.join(store.acquire(new LockRequest("new", TTL)));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo(LockStoreException.GENERIC_CODE);
		assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> Stages.join(held.release()))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(LockStoreException.GENERIC_CODE));
	}

	private static boolean chattr(String change, Path directory) throws InterruptedException {
		try {
			Process process = new ProcessBuilder("chattr", change, directory.toString()).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private void makeReadOnly(Path directory) throws IOException {
		assumeTrue(DirectorySafety.isPosix(directory), "the file system has no POSIX permissions");
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-x------"));
		this.restoreWritable = directory;
	}

	private static void assertFailsEverywhere(FileLockStore store, String code) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest("job", TTL)));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo(code);
		LockLease lease = new LockLease("job", UUID.randomUUID().toString(), 1, Instant.now(), TTL);
		assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> Stages.join(store.release(lease)))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(code));
		assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> Stages.join(store.extend(lease, TTL)))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(code));
		assertThat(store.acquire(new LockRequest("job", TTL)).toCompletableFuture().join())
			.isInstanceOf(AcquireResult.Failed.class);
	}

}
