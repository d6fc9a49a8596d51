package io.github.lockable.store.file;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file store is blocking by nature: it does its file work on the caller's thread and
 * returns stages that are already complete.
 */
class FileLockStoreStageTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@TempDir
	Path directory;

	@Test
	void everyStageIsCompleteWhenReturned() {
		try (FileLockStore store = new FileLockStore(this.directory.resolve("locks"), null)) {
			CompletableFuture<AcquireResult> acquired = store.acquire(new LockRequest("job", TTL)).toCompletableFuture();
			assertThat(acquired).isCompletedWithValueMatching(AcquireResult.Acquired.class::isInstance);
			LockLease lease = ((AcquireResult.Acquired) acquired.join()).handle().lease();
			assertThat(store.extend(lease, TTL).toCompletableFuture()).isCompletedWithValue(true);
			assertThat(store.release(lease).toCompletableFuture()).isCompletedWithValue(ReleaseResult.RELEASED);
		}
	}

}
