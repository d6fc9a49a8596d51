package io.github.lockable.store.file;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.ReleaseWaiters;

/**
 * A {@link LockStore} of lock files in one directory, for several processes on one host
 * (cron jobs, two instances of an application, a command line tool) without a server; not
 * for several hosts, not even on a network file system: use the Redis store there.
 * <p>
 * A lock is a file {@code <name>.lock} (see {@link LockFileName}: no key names a file
 * outside the directory) holding metadata only: the key ({@code job}), the holder's pid,
 * host and process start, when the lock was taken and expires, the application version,
 * the fencing token and the owner's token. It is published atomically and exclusively
 * (see {@link LockFiles}), held until its TTL runs out on the wall clock or its holder is
 * known to be dead (see {@link ProcessIdentity}), and every step that reads it and acts on
 * it runs under the directory's {@link LockGuard}, so a release or extend changes only a
 * lock file that holds the caller's token. Fencing tokens come from one
 * {@link FencingCounter} per directory. Everything the store creates is owner-only; a
 * directory another user could tamper with is refused (see {@link DirectorySafety}) when
 * the store is created, with an {@link UnsafeLockDirectoryException}, and later by every
 * call with the code {@code UNSAFE_DIRECTORY}.
 * <p>
 * A failed file operation gives {@link AcquireResult.Failed}, or a
 * {@link LockStoreException} from release and extend, coded by the exception's type
 * ({@code EACCES}, {@code ENOENT}, {@code ENOTDIR}, ...) or {@code STORE_ERROR};
 * {@code TIMEOUT} when the guard stayed taken for the store's timeout. Every call blocks for
 * microseconds (an acquire also for forcing the counter to disk), at most that timeout.
 * Another process's release is seen only by reading the file, so
 * {@link #awaitRelease(String, Duration)} polls (see {@link PollBackoff}).
 */
public final class FileLockStore implements LockStore, LockStoreHealth, AutoCloseable {

	private final Path directory;

	private final LockFileSteps steps;

	private final ReleaseWaiters waiters = new ReleaseWaiters();

	private final PollBackoff backoff = new PollBackoff();

	/**
	 * Creates a store of lock files in a directory, created when first needed.
	 * @param directory the lock directory; never one that anything else cleans up
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	public FileLockStore(Path directory) {
		this(directory, null);
	}

	/**
	 * As {@link #FileLockStore(Path)}, with the application version written into lock files.
	 */
	public FileLockStore(Path directory, @Nullable String version) {
		this(directory, version, FileStoreOptions.defaults());
	}

	/**
	 * As {@link #FileLockStore(Path, String)}, with the longest wait for the guard of the
	 * directory, after which a call fails with {@code TIMEOUT}.
	 */
	public FileLockStore(Path directory, @Nullable String version, Duration timeout) {
		this(directory, version, new FileStoreOptions(FileStoreOptions.defaults().clock(), true, timeout, true,
				FileStoreOptions.defaults().procRoot()));
	}

	FileLockStore(Path directory, @Nullable String version, FileStoreOptions options) {
		this.directory = Objects.requireNonNull(directory, "directory must not be null").toAbsolutePath().normalize();
		this.steps = new LockFileSteps(this.directory, version, Objects.requireNonNull(options, "options"));
	}

	@Override
	public String name() {
		return "file";
	}

	@Override
	public Status checkHealth() {
		LockDirectoryStatus status = checkDirectory();
		return new Status(status.isUsable(), status.details());
	}

	/**
	 * Checks the lock directory now, as at startup, and that it is a writable directory.
	 * @return what the check found
	 */
	public LockDirectoryStatus checkDirectory() {
		return DirectorySafety.status(this.directory);
	}

	/**
	 * Runs on the caller's thread and returns a stage already complete, as the other
	 * operations do: the store is blocking by nature.
	 */
	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		return CompletableFuture.completedFuture(acquireNow(request));
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		try {
			return CompletableFuture.completedFuture(releaseNow(lease));
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		try {
			return CompletableFuture.completedFuture(this.steps.extend(lease, ttl));
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/** The token recorded in the lock file at the acquire, while the lease still owns the lock. */
	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		try {
			return CompletableFuture.completedFuture(this.steps.isOwned(lease) ? lease.fencingToken() : 0L);
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private AcquireResult acquireNow(LockRequest request) {
		long requested = System.nanoTime();
		try {
			return this.steps.acquire(request, (mine) -> {
				this.backoff.reset(request.key());
				return new AcquireResult.Acquired(new LockHandle(this, new LockLease(request.key(), mine.token(),
						mine.fencingToken(), mine.startedAt(), request.ttl()), requested));
			});
		}
		catch (LockStoreException ex) {
			return new AcquireResult.Failed(ex);
		}
	}

	private ReleaseResult releaseNow(LockLease lease) {
		ReleaseResult result = this.steps.release(lease);
		// outside the guard: a woken waiter may acquire the key at once, on this thread
		this.backoff.reset(lease.key());
		this.waiters.released(lease.key());
		return result;
	}

	/**
	 * Completes after the key's next {@link PollBackoff backoff}, when this JVM releases the
	 * key, or after {@code maxWait}, whichever comes first.
	 */
	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		Duration poll = this.backoff.next(key);
		return this.waiters.await(key, (poll.compareTo(maxWait) < 0) ? poll : maxWait);
	}

	/**
	 * Wakes every waiter of {@link #awaitRelease}; the store keeps working.
	 */
	@Override
	public void close() {
		this.waiters.releasedAll();
	}

	@Override
	public String toString() {
		return "FileLockStore[" + this.directory + "]";
	}

}
