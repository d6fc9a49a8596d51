package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.ReleaseWaiters;
import io.github.lockable.store.file.LockFileState.Present;
import io.github.lockable.store.file.LockFileState.Unreadable;
import io.github.lockable.store.file.LockGuard.GuardTimeoutException;

/**
 * A {@link LockStore} of lock files in one directory, for several processes on one host
 * (cron jobs, two instances of an application, a command line tool) without a server.
 * Not for several hosts, not even on a shared network file system, where OS file locks
 * and hard links are not to be relied on and a holder's process cannot be checked: use
 * the Redis store there.
 * <p>
 * <b>Files.</b> A lock is a file {@code <name>.lock}, where the name is the key with every
 * byte outside {@code [A-Za-z0-9._-]} percent-encoded, shortened with a SHA-256 suffix when
 * long, so that no key can name a file outside the directory. The file holds metadata
 * only: the key ({@code job}), the holder's pid, host and process start, when the lock was
 * taken and when it expires, the application version if known, and the owner's token; never
 * arguments or other data of the locked call. The directory is created if missing, and
 * everything the store creates is owner-only ({@code rwx------} and {@code rw-------})
 * where the file system has POSIX permissions. A directory that another user could tamper
 * with (owned by another user, writable by group or others, or reached through another
 * user's symbolic link) is refused when the store is created, with an
 * {@link UnsafeLockDirectoryException}, or, if it turns so later, by every call with the
 * code {@code UNSAFE_DIRECTORY}.
 * <p>
 * <b>Acquire.</b> The new lock is written to a temporary file and published with a hard
 * link, which is atomic and fails if a lock file exists, so no reader ever sees a
 * half-written lock. If one exists it is read: a live lock answers
 * {@link AcquireResult.Held} with its remaining TTL and age; a stale one is replaced with
 * an atomic rename.
 * <p>
 * <b>Stale locks.</b> A lock is stale once its TTL has run out ({@code expiresAt} in the
 * file, on the wall clock), or at once when its holder is known to be dead: on Linux, a
 * holder on this host, in this boot and pid namespace, whose process is gone, a zombie, or
 * replaced by a newer process with the same pid (see {@link ProcessIdentity}). A pid that
 * {@code /proc} does not show counts as gone only where {@code /proc} hides no process
 * from us ({@code hidepid=invisible}, systemd's {@code ProtectProc=invisible}, hide other
 * users' processes). Elsewhere, or when in doubt, the TTL decides. A file that cannot be
 * parsed (damaged, or partly written on a file system without hard links) counts as held
 * for one TTL of the request from its last modification.
 * <p>
 * <b>No race.</b> Every step that reads a lock file and acts on it (reclaim, release,
 * extend) runs under a {@link LockGuard}: an OS file lock, which the kernel drops when a
 * process dies, plus a lock inside the JVM. Two processes that find the same stale lock
 * take turns, and the second finds the first one's new lock; a release or extend deletes or
 * changes only a lock file that holds the caller's token at that moment.
 * <p>
 * <b>Failures.</b> A file operation that fails (permission denied, a missing or
 * uncreatable directory, a path through a regular file, a full disk, a read-only file
 * system) gives {@link AcquireResult.Failed}, or a {@link LockStoreException} from release
 * and extend, whose {@link LockStoreException#getCode() code} is the errno name:
 * {@code EACCES}, {@code ENOENT}, {@code ENOTDIR}, {@code ENOSPC}, {@code EROFS} and so on,
 * or {@code STORE_ERROR}; {@code TIMEOUT} when the guard of a lock stayed taken for the
 * store's timeout (two seconds unless set); {@code UNSAFE_DIRECTORY} for a directory that
 * turned unsafe after the store was created. Every call blocks for microseconds (an
 * acquire also for writing the fencing counter to disk), at most for that timeout.
 * <p>
 * <b>Fencing tokens.</b> Every acquisition draws its fencing token from one counter for the
 * whole directory, the file {@value FencingCounter#FILE_NAME} next to the lock files
 * ({@code rw-------}), incremented under a guard of its own in the same guarded step that
 * publishes the lock file, and recorded in the lock file as {@code fencingToken}. One
 * counter for every key keeps the directory at one extra file and makes every token
 * greater than all tokens issued before in that directory. The file never expires and is
 * never deleted by the store; deleting it, or the directory, starts the tokens again at 1
 * and breaks that guarantee. It is replaced by renaming a complete, synced temporary
 * file, so a crashed process leaves the old or the new value, never a reused one.
 * <p>
 * <b>Stages.</b> The store is blocking by nature: {@link #acquire}, {@link #release} and
 * {@link #extend} run on the caller's thread and return a stage that is already complete.
 * <p>
 * <b>Waiting.</b> Another process's release cannot be seen without reading the file, so
 * {@link #awaitRelease(String, Duration)} polls: it completes after a backoff of 5ms,
 * doubled for every further wait on the key up to 200ms (see {@link PollBackoff}), or at
 * once when this JVM releases the key, or at the maximum wait if that comes first. No
 * thread sleeps meanwhile.
 */
public final class FileLockStore implements LockStore, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(FileLockStore.class);

	private final Path directory;

	private final @Nullable String version;

	private final FileStoreOptions options;

	private final long guardTimeoutNanos;

	private final ProcessIdentity identity = ProcessIdentity.current();

	private final ProcTable processes;

	private final ThreadPoolExecutor executor;

	private final Object prepareMonitor = new Object();

	private final ReleaseWaiters waiters = new ReleaseWaiters();

	private final PollBackoff backoff = new PollBackoff();

	private volatile @Nullable LockDirectory prepared;

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
	 * @param timeout longest wait for the guard of one lock, after which a call fails with
	 * {@code TIMEOUT}
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	public FileLockStore(Path directory, @Nullable String version, Duration timeout) {
		this(directory, version, FileStoreOptions.defaults().withGuardTimeout(timeout));
	}

	FileLockStore(Path directory, @Nullable String version, FileStoreOptions options) {
		this.directory = Objects.requireNonNull(directory, "directory must not be null").toAbsolutePath().normalize();
		this.version = version;
		this.options = Objects.requireNonNull(options, "options must not be null");
		this.guardTimeoutNanos = options.guardTimeout().toNanos();
		this.processes = ProcTable.at(options.procRoot());
		refuseIfUnsafe(this.directory);
		this.executor = FileStoreThreads.create(options.threads());
	}

	/**
	 * Refuses an unsafe directory at once, as far as it exists; what cannot be read yet is
	 * reported by the first call, which prepares the directory and checks it again.
	 */
	private static void refuseIfUnsafe(Path directory) {
		try {
			DirectorySafety.check(directory);
		}
		catch (IOException ex) {
			logger.debug("Could not check lock directory {} yet", directory, ex);
		}
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

	/**
	 * Runs on the caller's thread and returns a stage already complete, as the other
	 * operations do.
	 */
	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		return CompletableFuture.completedFuture(acquireNow(request));
	}

	private AcquireResult acquireNow(LockRequest request) {
		LockFileName name = LockFileName.of(request.key());
		try {
			return run("acquire", request.key(), name, (directory) -> acquire(directory, name, request));
		}
		catch (LockStoreException ex) {
			return new AcquireResult.Failed(ex);
		}
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
		try {
			return CompletableFuture.completedFuture(extendNow(lease, ttl));
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * The token recorded in the lock file at the acquire, while the lease still owns the
	 * lock; read on the caller's thread, as the other operations are.
	 */
	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		LockFileName name = LockFileName.of(lease.key());
		try {
			return CompletableFuture.completedFuture(run("fencingToken", lease.key(), name, (directory) -> {
				boolean owned = directory.files().read(name.lockFile(directory.path())) instanceof Present present
						&& present.metadata().isOwnedBy(lease.token()) && !present.metadata().isExpired(now());
				return owned ? lease.fencingToken() : 0L;
			}));
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private <T> CompletionStage<T> submit(String operation, String key, Supplier<T> work,
			@Nullable Function<LockStoreException, T> refusedResult) {
		CompletableFuture<T> result = new CompletableFuture<>();
		try {
			this.executor.execute(() -> {
				try {
					result.complete(work.get());
				}
				catch (Throwable ex) {
					result.completeExceptionally(ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			LockStoreException refused = refused(operation, key, ex);
			if (refusedResult != null) {
				result.complete(refusedResult.apply(refused));
			}
			else {
				result.completeExceptionally(refused);
			}
		}
		return result;
	}

	private LockStoreException refused(String operation, String key, RejectedExecutionException ex) {
		if (this.executor.isShutdown()) {
			return new LockStoreException("Cannot " + operation + " the lock '" + key + "' in " + this.directory
					+ " asynchronously: the store is closed", "CLOSED", ex);
		}
		return new LockStoreException("Cannot " + operation + " the lock '" + key + "' in " + this.directory
				+ " asynchronously: all " + this.executor.getMaximumPoolSize() + " threads of the store and its queue of "
				+ this.options.threads().queue() + " calls are busy", "BUSY", ex);
	}

	/**
	 * Stops the threads of the asynchronous calls, after the calls already taken, waiting
	 * for them at most as long as for the guard of a lock. Blocking calls keep working.
	 */
	@Override
	public void close() {
		this.waiters.releasedAll();
		this.executor.shutdown();
		try {
			if (!this.executor.awaitTermination(this.guardTimeoutNanos, TimeUnit.NANOSECONDS)) {
				logger.warn("Closed the file store of {} while asynchronous calls still run", this.directory);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Reads first, as most attempts under contention find a live lock and a read is the
	 * cheapest answer. A free lock is still created only by the atomic, exclusive hard link,
	 * which fails if any lock file exists, and a stale one is replaced only under the guard.
	 */
	private AcquireResult acquire(LockDirectory directory, LockFileName name, LockRequest request) throws IOException {
		LockFiles files = directory.files();
		Path lock = name.lockFile(directory.path());
		long requested = System.nanoTime();
		for (int attempt = 1; attempt <= 3; attempt++) {
			LockFileState state = files.read(lock);
			Instant now = now();
			if (state instanceof Present present) {
				LockMetadata holder = present.metadata();
				if (!holder.isExpired(now) && !isKnownDead(holder)) {
					return new AcquireResult.Held(holder.remainingTtl(now), holder.age(now));
				}
			}
			else if (state instanceof Unreadable unreadable) {
				Instant staleAt = unreadable.modified().plus(request.ttl());
				if (now.isBefore(staleAt)) {
					// The file's time can be finer than the clock's (Java 25): never a negative
					// age, never more left than a whole TTL.
					Duration age = Duration.between(unreadable.modified(), now);
					Duration left = Duration.between(now, staleAt);
					return new AcquireResult.Held((left.compareTo(request.ttl()) > 0) ? request.ttl() : left,
							age.isNegative() ? Duration.ZERO : age);
				}
			}
			LockMetadata mine = new LockMetadata(request.key(), LockTokens.next(),
					nextFencingToken(directory, request.key()), this.identity, now, now.plus(request.ttl()), this.version);
			byte[] content = LockFileFormat.write(mine).getBytes(StandardCharsets.US_ASCII);
			Path temp = files.writeTemp(name, content);
			try {
				if (state == LockFileState.Missing.INSTANCE) {
					if (files.create(lock, temp, content)) {
						return acquired(mine, request, requested);
					}
					// created by something that ignores the guard: read it again
				}
				else {
					files.replace(lock, temp);
					logReclaim(request.key(), state, now);
					return acquired(mine, request, requested);
				}
			}
			finally {
				files.deleteQuietly(temp);
			}
		}
		throw new IOException("Lock file " + lock + " keeps appearing and disappearing");
	}

	/**
	 * Draws the next fencing token under the counter's guard, taken inside the lock's own
	 * guard, so that a lock file is published only with a token greater than those of the
	 * lock files before it.
	 */
	private long nextFencingToken(LockDirectory directory, String key) throws IOException {
		try {
			return directory.guard()
				.callOnCounter(this.guardTimeoutNanos, () -> FencingCounter.next(directory.path()));
		}
		catch (GuardTimeoutException ex) {
			throw guardTimeout("acquire", key, "the guard of its fencing counter", ex);
		}
	}

	private boolean isKnownDead(LockMetadata holder) {
		return this.options.detectDeadHolders() && holder.holder().isKnownDead(this.identity, this.processes);
	}

	private void logReclaim(String key, LockFileState state, Instant now) {
		if (!(state instanceof Present present)) {
			logger.warn("Replaced the unreadable lock file of '{}', last modified {}", key,
					((Unreadable) state).modified());
			return;
		}
		ProcessIdentity holder = present.metadata().holder();
		if (present.metadata().isExpired(now)) {
			logger.info("Reclaimed the lock '{}' of pid {} on {}, expired {}ms ago", key, holder.pid(), holder.host(),
					Duration.between(present.metadata().expiresAt(), now).toMillis());
		}
		else {
			logger.warn("Reclaimed the lock '{}' of pid {} on {}: that process ended without releasing it, {}ms after "
					+ "it took the lock", key, holder.pid(), holder.host(), present.metadata().age(now).toMillis());
		}
	}

	private AcquireResult acquired(LockMetadata mine, LockRequest request, long requested) {
		this.backoff.reset(request.key());
		LockLease lease = new LockLease(request.key(), mine.token(), mine.fencingToken(), mine.startedAt(),
				request.ttl());
		return new AcquireResult.Acquired(new LockHandle(this, lease, requested));
	}

	private ReleaseResult releaseNow(LockLease lease) {
		LockFileName name = LockFileName.of(lease.key());
		boolean[] deleted = { false };
		ReleaseResult result = run("release", lease.key(), name, (directory) -> {
			Path lock = name.lockFile(directory.path());
			if (!(directory.files().read(lock) instanceof Present present)
					|| !present.metadata().isOwnedBy(lease.token())) {
				return ReleaseResult.NOT_OWNER;
			}
			directory.files().delete(lock);
			deleted[0] = true;
			return present.metadata().isExpired(now()) ? ReleaseResult.NOT_OWNER : ReleaseResult.RELEASED;
		});
		if (deleted[0]) {
			// Outside the guard: a woken waiter may acquire the key at once, on this thread.
			this.backoff.reset(lease.key());
			this.waiters.released(lease.key());
		}
		return result;
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

	private boolean extendNow(LockLease lease, Duration ttl) {
		checkExtension(ttl);
		LockFileName name = LockFileName.of(lease.key());
		return run("extend", lease.key(), name, (directory) -> {
			Path lock = name.lockFile(directory.path());
			Instant now = now();
			if (!(directory.files().read(lock) instanceof Present present)
					|| !present.metadata().isOwnedBy(lease.token()) || present.metadata().isExpired(now)) {
				return false;
			}
			LockMetadata extended = present.metadata().withExpiresAt(now.plus(ttl));
			Path temp = directory.files()
				.writeTemp(name, LockFileFormat.write(extended).getBytes(StandardCharsets.US_ASCII));
			try {
				directory.files().replace(lock, temp);
			}
			finally {
				directory.files().deleteQuietly(temp);
			}
			return true;
		});
	}

	private static void checkExtension(Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
	}

	/**
	 * Runs a step on a lock under its guard, in the prepared directory; if the directory
	 * vanished (deleted by hand or by a cleaner), prepares it again and retries once.
	 */
	private <T> T run(String operation, String key, LockFileName name, LockStep<T> step) {
		try {
			LockDirectory directory = directory();
			try {
				return directory.guard().call(name, this.guardTimeoutNanos, () -> step.run(directory));
			}
			catch (NoSuchFileException ex) {
				if (Files.isDirectory(directory.path())) {
					throw ex;
				}
				LockDirectory again = prepareAgain(directory);
				return again.guard().call(name, this.guardTimeoutNanos, () -> step.run(again));
			}
		}
		catch (IOException ex) {
			throw new LockStoreException("Cannot " + operation + " the lock '" + key + "' in " + this.directory + ": "
					+ ex.getMessage(), ErrorCodes.of(ex, this.directory), ex);
		}
		catch (GuardTimeoutException ex) {
			throw guardTimeout(operation, key, "its guard", ex);
		}
		catch (UnsafeLockDirectoryException ex) {
			throw new LockStoreException("Cannot " + operation + " the lock '" + key + "': " + ex.getMessage(),
					"UNSAFE_DIRECTORY", ex);
		}
		catch (LockStoreException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new LockStoreException("Cannot " + operation + " the lock '" + key + "' in " + this.directory + ": "
					+ ex, ex);
		}
	}

	private LockStoreException guardTimeout(String operation, String key, String guard, GuardTimeoutException ex) {
		return new LockStoreException("Cannot " + operation + " the lock '" + key + "' in " + this.directory + ": "
				+ guard + " stayed taken for " + this.options.guardTimeout().toMillis()
				+ "ms (another process is stopped or stuck while holding it)", "TIMEOUT", ex);
	}

	private LockDirectory directory() throws IOException {
		LockDirectory current = this.prepared;
		if (current != null) {
			return current;
		}
		synchronized (this.prepareMonitor) {
			if (this.prepared == null) {
				this.prepared = LockDirectory.prepare(this.directory, this.options.hardLinks());
			}
			return this.prepared;
		}
	}

	private LockDirectory prepareAgain(LockDirectory vanished) throws IOException {
		synchronized (this.prepareMonitor) {
			if (this.prepared == vanished) {
				this.prepared = null;
			}
		}
		return directory();
	}

	private Instant now() {
		return this.options.clock().instant().truncatedTo(ChronoUnit.MILLIS);
	}

	@Override
	public String toString() {
		return "FileLockStore[" + this.directory + "]";
	}

	/**
	 * One step on a lock, run under its guard.
	 */
	@FunctionalInterface
	private interface LockStep<T> {

		T run(LockDirectory directory) throws IOException;

	}

}
