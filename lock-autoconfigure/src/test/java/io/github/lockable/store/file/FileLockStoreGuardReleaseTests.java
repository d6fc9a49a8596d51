package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Releasing the guard can fail after the guarded step changed the lock file; the caller
 * must then learn what the step did, not a failure that contradicts the file.
 */
class FileLockStoreGuardReleaseTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	private Path directory;

	private LockGuard guard;

	@BeforeEach
	void failingGuardRelease() throws IOException {
		this.directory = Files.createDirectory(this.temp.resolve("locks"));
		this.guard = LockGuard.of(this.directory.toRealPath());
		this.guard.releaseSlotsWith((lock) -> {
			lock.release();
			throw new IOException("injected: the guard could not be released");
		});
	}

	@AfterEach
	void normalGuardRelease() {
		this.guard.releaseSlotsWith(LockGuard.SlotRelease.OS);
	}

	@Test
	void lockFileWrittenBeforeTheGuardReleaseFailedIsReportedAcquired() {
		FileLockStore store = new FileLockStore(this.directory);
		AcquireResult result = Stages.join(store.acquire(new LockRequest("job", TTL)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		LockLease lease = ((AcquireResult.Acquired) result).handle().lease();
		assertThat(LockFileFixtures.json(this.directory, "job").get("token").asText()).isEqualTo(lease.token());
		assertThat(Stages.join(store.acquire(new LockRequest("job", TTL)))).isInstanceOf(AcquireResult.Held.class);
		assertThat(Stages.join(store.release(lease))).isEqualTo(ReleaseResult.RELEASED);
		assertThat(this.directory.resolve("job.lock")).doesNotExist();
	}

	@Test
	void extendThatChangedTheFileIsReportedExtended() {
		FileLockStore store = new FileLockStore(this.directory);
		LockLease lease = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest("job", TTL)))).handle().lease();
		assertThat(Stages.join(store.extend(lease, Duration.ofMinutes(5)))).isTrue();
		assertThat(Stages.join(store.release(lease))).isEqualTo(ReleaseResult.RELEASED);
	}

}
