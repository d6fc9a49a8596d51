package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The asynchronous calls do their file work on the store's own bounded pool. The tests
 * stall that work by holding the whole guard file, so that a call's stage is still open
 * when the test looks at it.
 */
class FileLockStoreAsyncTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	private Path directory;

	private FileLockStore store;

	@BeforeEach
	void oneThreadAndAQueueOfOne() {
		this.directory = this.temp.resolve("locks");
		this.store = new FileLockStore(this.directory, null,
				FileStoreOptions.defaults()
					.withGuardTimeout(Duration.ofSeconds(5))
					.withThreads(new FileStoreThreads.Limits(1, 1)));
		// creates the directory and the guard file
		((AcquireResult.Acquired) this.store.acquire(new LockRequest("warm-up", TTL))).handle().release();
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	@Test
	void acquireAndReleaseRunOnTheStoresThreadsWhileTheCallerGoesOn() throws IOException {
		AcquireResult acquired = onStoreThreadWhileStalled(() -> this.store.acquireAsync(new LockRequest("job", TTL)));
		LockLease lease = ((AcquireResult.Acquired) acquired).handle().lease();
		assertThat(onStoreThreadWhileStalled(() -> this.store.releaseAsync(lease))).isEqualTo(ReleaseResult.RELEASED);
	}

	/**
	 * Makes an asynchronous call while the guard is stalled, which must not hold up the
	 * caller, and checks that the stage completes on a thread of the store.
	 */
	private <T> T onStoreThreadWhileStalled(Supplier<CompletionStage<T>> call) throws IOException {
		CompletableFuture<T> result;
		CompletableFuture<String> completedOn;
		try (StalledGuard ignored = stallGuard()) {
			result = call.get().toCompletableFuture();
			completedOn = result.thenApply((value) -> Thread.currentThread().getName());
			assertThat(result).as("the caller is not held up by stalled file work").isNotDone();
		}
		assertThat(completedOn.join()).startsWith("lockable-file-");
		return result.join();
	}

	@Test
	void busyPoolRefusesAtOnceWithBUSY() throws IOException {
		CompletableFuture<AcquireResult> running;
		CompletableFuture<AcquireResult> queued;
		try (StalledGuard ignored = stallGuard()) {
			running = this.store.acquireAsync(new LockRequest("a", TTL)).toCompletableFuture();
			// the first call went to the thread directly, the second waits in the queue
			queued = this.store.acquireAsync(new LockRequest("b", TTL)).toCompletableFuture();
			AcquireResult refused = this.store.acquireAsync(new LockRequest("c", TTL)).toCompletableFuture().join();
			assertThat(refused).isInstanceOf(AcquireResult.Failed.class);
			assertThat(((AcquireResult.Failed) refused).cause().getCode()).isEqualTo("BUSY");
			assertThat(((AcquireResult.Failed) refused).cause())
				.hasMessageContaining("all 1 threads of the store and its queue of 1 calls are busy");
		}
		assertThat(running.join()).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(queued.join()).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void closedStoreRefusesAsynchronousCallsWithCLOSEDAndStillWorksBlocking() {
		LockLease lease = ((AcquireResult.Acquired) this.store.acquire(new LockRequest("job", TTL))).handle().lease();
		this.store.close();
		AcquireResult refused = this.store.acquireAsync(new LockRequest("other", TTL)).toCompletableFuture().join();
		assertThat(((AcquireResult.Failed) refused).cause().getCode()).isEqualTo("CLOSED");
		assertThat(this.store.releaseAsync(lease).toCompletableFuture())
			.failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(Exception.class)
			.havingCause()
			.isInstanceOfSatisfying(LockStoreException.class, (ex) -> assertThat(ex.getCode()).isEqualTo("CLOSED"));
		assertThat(this.store.release(lease)).isEqualTo(ReleaseResult.RELEASED);
	}

	/**
	 * Holds the whole guard file: inside one JVM the store's byte lock overlaps it, and the
	 * store waits as for another process, until the guard timeout.
	 */
	private StalledGuard stallGuard() throws IOException {
		FileChannel channel = FileChannel.open(this.directory.resolve(LockGuard.FILE_NAME), StandardOpenOption.WRITE);
		channel.lock();
		return new StalledGuard(channel);
	}

	/**
	 * Closing the channel releases its lock.
	 */
	private record StalledGuard(FileChannel channel) implements AutoCloseable {

		@Override
		public void close() throws IOException {
			this.channel.close();
		}

	}

}
