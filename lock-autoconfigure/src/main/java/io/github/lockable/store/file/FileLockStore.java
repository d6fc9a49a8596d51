package io.github.lockable.store.file;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.ReleaseWaiters;

/**
 * A {@link LockStore} of lock files in one directory, for several processes on one host
 * (cron jobs, two instances of an application, a command line tool) without a server. Not
 * for several hosts, not even on a shared network file system, where OS file locks and
 * hard links are not to be relied on: use the Redis store there.
 * <p>
 * <b>Files.</b> A lock is a file {@code <name>.lock}, the key with every byte outside
 * {@code [A-Za-z0-9._-]} percent-encoded and a long one shortened with its SHA-256, so no
 * key can name a file outside the directory. It holds metadata only: the key
 * ({@code job}), the holder's pid, host and process start, when the lock was taken and
 * when it expires, the application version if known, the fencing token and the owner's
 * token; never data of the locked call. The directory is created if missing, and
 * everything the store creates is owner-only where the file system has POSIX permissions.
 * A directory another user could tamper with (owned by another user, writable by group or
 * others, or reached through another user's symbolic link) is refused when the store is
 * created, with an {@link UnsafeLockDirectoryException}, or later by every call with the
 * code {@code UNSAFE_DIRECTORY}.
 * <p>
 * <b>Acquire.</b> A new lock is written to a temporary file and published with a hard link,
 * atomic and exclusive. A live lock answers {@link AcquireResult.Held}; a stale one is
 * replaced with an atomic rename. A lock is stale once its TTL has run out (on the wall
 * clock), or at once when its holder is known to be dead (see {@link ProcessIdentity});
 * an unparsable file counts as held for one TTL of the request from its last change.
 * Every step that reads a lock file and acts on it runs under the directory's
 * {@link LockGuard}, so two processes that find the same stale lock take turns, and a
 * release or extend changes only a lock file that holds the caller's token.
 * <p>
 * <b>Fencing tokens</b> come from one counter for the directory, the file
 * {@value FencingCounter#FILE_NAME}, forced to disk before the lock that carries the
 * token is published: a token is greater than every one issued before in the directory,
 * also across restarts. Deleting the file, or the directory, starts the tokens again at 1.
 * <p>
 * <b>Failures.</b> A failed file operation gives {@link AcquireResult.Failed}, or a
 * {@link LockStoreException} from release and extend, whose code names it by its exception
 * type ({@code EACCES}, {@code ENOENT}, {@code ENOTDIR}, ...) or is {@code STORE_ERROR};
 * {@code TIMEOUT} when the guard stayed taken for the store's timeout. Every call blocks
 * for microseconds (an acquire also for forcing the counter to disk), at most for that
 * timeout.
 * <p>
 * <b>Waiting.</b> Another process's release cannot be seen without reading the file, so
 * {@link #awaitRelease(String, Duration)} polls, with a backoff from 5ms to 200ms per key
 * (see {@link PollBackoff}), or completes at once when this JVM releases the key.
 */
public final class FileLockStore implements LockStore, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(FileLockStore.class);

	private final Path directory;

	private final LockFileSteps steps;

	private final ReleaseWaiters waiters = new ReleaseWaiters();

	private final PollBackoff backoff = new PollBackoff();

	/**
	 * Creates a store of lock files in a directory, created when first needed.
	 * @param directory the lock directory; never a directory that anything else cleans up
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	public FileLockStore(Path directory) {
		this(directory, null);
	}

	/**
	 * Creates a store of lock files in a directory, created when first needed.
	 * @param directory the lock directory; never a directory that anything else cleans up
	 * @param version the application version written into lock files, or {@code null}
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	public FileLockStore(Path directory, @Nullable String version) {
		this(directory, version, FileStoreOptions.defaults());
	}

	/**
	 * Creates a store of lock files in a directory, created when first needed.
	 * @param directory the lock directory; never a directory that anything else cleans up
	 * @param version the application version written into lock files, or {@code null}
	 * @param timeout longest wait for the guard of the directory, after which a call fails
	 * with {@code TIMEOUT}
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	public FileLockStore(Path directory, @Nullable String version, Duration timeout) {
		this(directory, version, new FileStoreOptions(FileStoreOptions.defaults().clock(), true, timeout, true,
				FileStoreOptions.defaults().procRoot()));
	}

	FileLockStore(Path directory, @Nullable String version, FileStoreOptions options) {
		this.directory = Objects.requireNonNull(directory, "directory must not be null").toAbsolutePath().normalize();
		try {
			// what cannot be read yet is checked again by the first call, which prepares the directory
			DirectorySafety.check(this.directory);
		}
		catch (java.io.IOException ex) {
			logger.debug("Could not check lock directory {} yet", this.directory, ex);
		}
		this.steps = new LockFileSteps(this.directory, version, Objects.requireNonNull(options, "options"));
	}

	@Override
	public String name() {
		return "file";
	}

	/**
	 * Checks the lock directory now: that it exists, is a writable directory, and that no
	 * other user could tamper with it, as at startup.
	 * @return what the check found
	 */
	public LockDirectoryStatus checkDirectory() {
		return DirectorySafety.status(this.directory);
	}

	@Override
	public AcquireResult acquire(LockRequest request) {
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

	@Override
	public ReleaseResult release(LockLease lease) {
		ReleaseResult result = this.steps.release(lease);
		// outside the guard: a woken waiter may acquire the key at once, on this thread
		this.backoff.reset(lease.key());
		this.waiters.released(lease.key());
		return result;
	}

	@Override
	public boolean extend(LockLease lease, Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		return this.steps.extend(lease, ttl);
	}

	/**
	 * Completes after the key's next {@link PollBackoff backoff}, when this JVM releases the
	 * key, or after {@code maxWait}, whichever comes first. A release by another process is
	 * seen by the caller's next acquire.
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
