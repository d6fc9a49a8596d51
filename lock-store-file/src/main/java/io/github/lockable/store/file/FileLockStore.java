package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.NonBlockingCallers;
import io.github.lockable.store.PollBackoff;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.file.LockDirectory.LockFileState;
import io.github.lockable.store.file.LockDirectory.LockFileState.Unreadable;

import org.springframework.util.Assert;

/**
 * A {@link LockStore} of lock files in one directory, for several processes on one host
 * (cron jobs, two instances of an application, a command line tool) without a server; not
 * for several hosts, not even on a network file system: use the Redis store there.
 * <p>
 * A lock is a file {@code <name>.lock} (see {@link LockFileName}) holding metadata only
 * (see {@link LockMetadata}), among it the owner's token and a fencing token from the
 * directory's counter. It is published atomically and exclusively, held until its TTL runs
 * out on the wall clock or its holder is known to be dead (see {@link ProcessIdentity}),
 * and every step that reads it and acts on it runs under the directory's {@link LockGuard},
 * which also keeps the counter, so a release or extend changes only a lock file that holds
 * the caller's token. A directory another user could tamper with is refused (see
 * {@link DirectorySafety}): by the constructor with an
 * {@link UnsafeLockDirectoryException}, later by every call with the code
 * {@code UNSAFE_DIRECTORY}. A failed file operation is a {@link LockStoreException} (an
 * {@link AcquireResult.Failed} from acquire) coded as {@link LockDirectory} says. The file
 * work runs on the calling thread unless that thread must not block (see
 * {@link NonBlockingCallers}). Another process's release is seen only by reading the file,
 * so {@link #awaitRelease(String, Duration)} polls (see {@link PollBackoff}).
 * {@link #locks(String, int)} reads the lock files without the guard;
 * {@link #forceRelease(String)} deletes one under it.
 */
public final class FileLockStore implements LockStore, LockStoreHealth, AutoCloseable {

	/** As long as the default {@code lockable.acquire-timeout}. */
	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	private static final Logger logger = LoggerFactory.getLogger(FileLockStore.class);

	private final Path directory;

	private final @Nullable String version;

	private final Clock clock;

	private final boolean detectDeadHolders;

	private final LockDirectory files;

	private final ProcessIdentity identity = ProcessIdentity.current();

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
	 * @param directory the lock directory; never one that anything else cleans up
	 * @param version the application's version, written into lock files, if known
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	public FileLockStore(Path directory, @Nullable String version) {
		this(directory, version, DEFAULT_TIMEOUT);
	}

	/**
	 * As {@link #FileLockStore(Path, String)}, with the longest wait for the guard of the
	 * directory, after which a call fails with {@code TIMEOUT}.
	 * @param directory the lock directory; never one that anything else cleans up
	 * @param version the application's version, written into lock files, if known
	 * @param timeout the longest wait for the directory's guard
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	public FileLockStore(Path directory, @Nullable String version, Duration timeout) {
		this(directory, version, timeout, Clock.systemUTC(), true);
	}

	/**
	 * As {@link #FileLockStore(Path, String, Duration)}, with the wall clock that lock files
	 * are written and judged by, and whether a holder known to be dead loses its lock at
	 * once or only at the end of its TTL.
	 */
	FileLockStore(Path directory, @Nullable String version, Duration timeout, Clock clock, boolean detectDeadHolders) {
		Assert.isTrue(!timeout.isNegative() && !timeout.isZero(), () -> "timeout must be positive, was " + timeout);
		this.directory = directory.toAbsolutePath().normalize();
		this.version = version;
		this.clock = clock;
		this.detectDeadHolders = detectDeadHolders;
		this.files = new LockDirectory(this.directory, timeout);
	}

	@Override
	public String name() {
		return "file";
	}

	/**
	 * Checks the lock directory now, as at startup, and that it is a writable directory;
	 * a missing one is created first, as the next lock would create it, so a store that has
	 * not locked yet is not reported down.
	 */
	@Override
	public Status checkHealth() {
		try {
			this.files.prepare();
		}
		catch (IOException | UnsafeLockDirectoryException ex) {
			// the status names what is wrong with the directory
			logger.debug("Could not prepare lock directory {}", this.directory, ex);
		}
		return DirectorySafety.status(this.directory);
	}

	/** Creates a free lock with the atomic, exclusive create, and replaces a stale one. */
	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		long requested = System.nanoTime();
		return NonBlockingCallers.complete(() -> {
			try {
				return this.files.run("acquire", request.key(), (real) -> acquireUnderGuard(real, request, requested));
			}
			catch (LockStoreException ex) {
				return new AcquireResult.Failed(ex);
			}
		});
	}

	private AcquireResult acquireUnderGuard(Path real, LockRequest request, long requested) throws IOException {
		Path lock = LockFileName.of(request.key()).lockFile(real);
		LockFileState state = LockDirectory.read(lock);
		Instant now = now();
		AcquireResult.Held held = held(state, now, request.ttl());
		if (held != null) {
			return held;
		}
		LockMetadata mine = new LockMetadata(request.key(), LockTokens.next(), LockGuard.nextFencingToken(real),
				this.identity, now, now.plus(request.ttl()), this.version,
				(request.holder() != null) ? request.holder().instance() : null,
				(request.holder() != null) ? request.holder().method() : null);
		boolean create = state == LockFileState.Missing.INSTANCE;
		LockDirectory.publish(lock, bytes(mine), create, false);
		if (!create) {
			logReclaim(request.key(), state, now);
		}
		this.backoff.reset(request.key());
		return new AcquireResult.Acquired(new LockHandle(this, new LockLease(request.key(), mine.token(),
				mine.fencingToken(), now, request.ttl()), requested));
	}

	/** The answer for a lock that is held, or {@code null} if it is free or stale. */
	private AcquireResult.@Nullable Held held(LockFileState state, Instant now, Duration ttl) {
		if (state instanceof LockMetadata holder) {
			return isStale(holder, now) ? null : new AcquireResult.Held(holder.remainingTtl(now), holder.age(now));
		}
		if (state instanceof Unreadable unreadable && now.isBefore(unreadable.modified().plus(ttl))) {
			// held for one TTL of the request from its last change; the file's time can be finer than the clock's
			Duration age = Duration.between(unreadable.modified(), now);
			age = age.isNegative() ? Duration.ZERO : age;
			return new AcquireResult.Held(ttl.minus(age), age);
		}
		return null;
	}

	/** The stale rule: the TTL ran out, or the holder is known to be dead. */
	private boolean isStale(LockMetadata lock, Instant now) {
		return lock.isExpired(now) || (this.detectDeadHolders && lock.holder().isKnownDead(this.identity));
	}

	private static void logReclaim(String key, LockFileState state, Instant now) {
		if (state instanceof LockMetadata holder) {
			boolean expired = holder.isExpired(now);
			logger.atLevel(expired ? Level.INFO : Level.WARN)
				.log("Reclaimed the lock '{}' of pid {} on {}: {}ms after {}", key, holder.holder().pid(),
						holder.holder().host(),
						Duration.between(expired ? holder.expiresAt() : holder.startedAt(), now).toMillis(),
						expired ? "it expired" : "it was taken, by a process that ended without releasing it");
		}
		else {
			logger.warn("Replaced the unreadable lock file of '{}', last modified {}", key,
					((Unreadable) state).modified());
		}
	}

	/** Deletes the lock file if it holds the lease's token; a lapsed lock is not the owner's. */
	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		return NonBlockingCallers.complete(() -> {
			ReleaseResult result = this.files.run("release", lease.key(), (real) -> {
				Path lock = LockFileName.of(lease.key()).lockFile(real);
				LockMetadata owned = owned(lock, lease);
				if (owned == null) {
					return ReleaseResult.NOT_OWNER;
				}
				Files.deleteIfExists(lock);
				return owned.isExpired(now()) ? ReleaseResult.NOT_OWNER : ReleaseResult.RELEASED;
			});
			// outside the guard: a woken waiter may acquire the key at once, on this thread
			this.backoff.released(lease.key());
			return result;
		});
	}

	/** Moves the expiry of the lock file, if it holds the lease's token and has not lapsed. */
	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		Assert.isTrue(ttl.toMillis() >= 1, () -> "ttl must be at least 1ms, was " + ttl);
		return NonBlockingCallers.complete(() -> this.files.run("extend", lease.key(), (real) -> {
			Path lock = LockFileName.of(lease.key()).lockFile(real);
			Instant now = now();
			LockMetadata owned = owned(lock, lease);
			if (owned == null || owned.isExpired(now)) {
				return false;
			}
			LockDirectory.publish(lock, bytes(owned.withExpiresAt(now.plus(ttl))), false, false);
			return true;
		}));
	}

	/** The token recorded in the lock file at the acquire, while the lease still owns the lock. */
	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		return NonBlockingCallers.complete(() -> this.files.run("fencingToken", lease.key(), (real) -> {
			LockMetadata owned = owned(LockFileName.of(lease.key()).lockFile(real), lease);
			return (owned != null && !owned.isExpired(now())) ? lease.fencingToken() : 0L;
		}));
	}

	/**
	 * Reads the lock directory without its guard, skipping files being written or removed,
	 * stale locks, and any file that is not a complete lock file.
	 */
	@Override
	public CompletionStage<LockListing> locks(String prefix, int limit) {
		Assert.isTrue(limit >= 1, () -> "limit must be at least 1, was " + limit);
		return NonBlockingCallers.complete(() -> {
			Instant now = now();
			return this.files.list(prefix, limit, now, (lock) -> isStale(lock, now));
		});
	}

	/**
	 * Deletes the key's lock file under the guard, as a reclaim replaces a stale one, so
	 * that it never deletes the lock of a holder that took the key meanwhile, and wakes this
	 * JVM's waiters. A stale lock file is deleted too, but was not held; a file that is not a
	 * complete lock file, which an acquire takes for held, was.
	 */
	@Override
	public CompletionStage<Boolean> forceRelease(String key) {
		return NonBlockingCallers.complete(() -> {
			boolean held = this.files.run("force-release", key, (real) -> {
				Path lock = LockFileName.of(key).lockFile(real);
				LockFileState state = LockDirectory.read(lock);
				if (state == LockFileState.Missing.INSTANCE) {
					return false;
				}
				Files.deleteIfExists(lock);
				if (!(state instanceof LockMetadata holder)) {
					return true;
				}
				Instant now = now();
				if (isStale(holder, now)) {
					return false;
				}
				logger.info("Force-released the lock '{}' of pid {} on {}, {}ms after it was taken", key,
						holder.holder().pid(), holder.holder().host(), holder.age(now).toMillis());
				return true;
			});
			// outside the guard, as for a release
			this.backoff.released(key);
			return held;
		});
	}

	/** What the lock file says, if it holds the lease's token. */
	private static @Nullable LockMetadata owned(Path lock, LockLease lease) throws IOException {
		return (LockDirectory.read(lock) instanceof LockMetadata holder && holder.isOwnedBy(lease.token())) ? holder : null;
	}

	private static byte[] bytes(LockMetadata metadata) {
		return metadata.write().getBytes(StandardCharsets.US_ASCII);
	}

	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MILLIS);
	}

	/**
	 * Completes after the key's next {@link PollBackoff backoff}, when this JVM releases the
	 * key, or after {@code maxWait}, whichever comes first.
	 */
	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		return this.backoff.await(key, maxWait);
	}

	/** Wakes every waiter of {@link #awaitRelease}; the store keeps working. */
	@Override
	public void close() {
		this.backoff.releasedAll();
	}

	@Override
	public String toString() {
		return "FileLockStore[" + this.directory + "]";
	}

}
