package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file store is blocking by nature: it does its file work on the caller's thread and
 * returns stages that are already complete, unless the caller is a thread that must not
 * block (an event loop), whose stage Reactor's bounded elastic scheduler completes.
 */
class FileLockStoreStageTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	/** Far longer than the test waits for a call to return, so that a call waiting for the guard shows. */
	private static final Duration GUARD_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration WAIT = Duration.ofSeconds(20);

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

	@Test
	void aCallerThatMustNotBlockGetsItsStageAtOnceWhileTheGuardIsTaken() throws IOException {
		Path locks = this.directory.resolve("locks");
		Scheduler eventLoop = Schedulers.newParallel("event-loop", 1);
		try (FileLockStore store = new FileLockStore(locks, null, GUARD_TIMEOUT)) {
			LockLease held = ((AcquireResult.Acquired) store.acquire(new LockRequest("held", TTL)).toCompletableFuture()
				.join()).handle().lease();
			CompletableFuture<AcquireResult> acquired;
			CompletableFuture<ReleaseResult> released;
			// Inside one JVM the test's whole-file lock makes the store's lock overlap: the guard is taken
			try (FileChannel channel = FileChannel.open(locks.resolve(LockGuard.FILE_NAME), StandardOpenOption.WRITE);
					FileLock guard = channel.lock()) {
				acquired = calledOn(eventLoop, () -> store.acquire(new LockRequest("job", TTL)).toCompletableFuture());
				released = calledOn(eventLoop, () -> store.release(held).toCompletableFuture());
				assertThat(acquired).isNotDone();
				assertThat(released).isNotDone();
			}
			assertThat(acquired).succeedsWithin(WAIT).isInstanceOf(AcquireResult.Acquired.class);
			assertThat(released).succeedsWithin(WAIT).isEqualTo(ReleaseResult.RELEASED);
			LockLease lease = ((AcquireResult.Acquired) acquired.join()).handle().lease();
			assertThat(calledOn(eventLoop, () -> store.fencingToken(lease).toCompletableFuture())).succeedsWithin(WAIT)
				.isEqualTo(lease.fencingToken());
			assertThat(calledOn(eventLoop, () -> store.extend(lease, TTL).toCompletableFuture())).succeedsWithin(WAIT)
				.isEqualTo(true);
		}
		finally {
			eventLoop.dispose();
		}
	}

	/** What the call returns on the thread, once it has returned there. */
	private static <T> CompletableFuture<T> calledOn(Scheduler thread, Supplier<CompletableFuture<T>> call) {
		CompletableFuture<CompletableFuture<T>> returned = new CompletableFuture<>();
		thread.schedule(() -> returned.complete(call.get()));
		assertThat(returned).describedAs("the call returned on the thread that must not block").succeedsWithin(WAIT);
		return returned.join();
	}

}
