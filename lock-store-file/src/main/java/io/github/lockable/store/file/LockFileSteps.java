package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.file.LockFileState.Present;
import io.github.lockable.store.file.LockFileState.Unreadable;
import io.github.lockable.store.file.LockGuard.GuardTimeoutException;

/**
 * The work of a {@link FileLockStore}: acquire, release and extend as steps on lock files
 * under the directory's {@link LockGuard}, and the translation of what fails into a
 * {@link LockStoreException} whose code names the failure by its exception type.
 */
final class LockFileSteps {

	private static final Logger logger = LoggerFactory.getLogger(FileLockStore.class);

	private static final Map<Class<?>, String> CODES = Map.of(AccessDeniedException.class, "EACCES",
			NoSuchFileException.class, "ENOENT", NotDirectoryException.class, "ENOTDIR",
			FileAlreadyExistsException.class, "EEXIST", DirectoryNotEmptyException.class, "ENOTEMPTY",
			FileSystemLoopException.class, "ELOOP");

	private final Path directory;

	private final @Nullable String version;

	private final FileStoreOptions options;

	private final ProcessIdentity identity = ProcessIdentity.current();

	private volatile @Nullable LockFiles prepared;

	/**
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	LockFileSteps(Path directory, @Nullable String version, FileStoreOptions options) {
		this.directory = directory;
		this.version = version;
		this.options = options;
		try {
			// what cannot be read yet is checked again by the first call, which prepares the directory
			DirectorySafety.check(directory);
		}
		catch (IOException ex) {
			logger.debug("Could not check lock directory {} yet", directory, ex);
		}
	}

	/**
	 * Creates a free lock with the atomic, exclusive create, and replaces a stale one.
	 * @param acquired the answer for the new lock
	 * @return that answer, or {@link AcquireResult.Held} if the lock is held
	 */
	AcquireResult acquire(LockRequest request, Function<LockMetadata, AcquireResult> acquired) {
		LockFileName name = LockFileName.of(request.key());
		return run("acquire", request.key(), (files) -> {
			Path lock = name.lockFile(files.path());
			for (int attempt = 1; attempt <= 3; attempt++) {
				LockFileState state = files.read(lock);
				Instant now = now();
				AcquireResult.Held held = held(state, now, request.ttl());
				if (held != null) {
					return held;
				}
				LockMetadata mine = new LockMetadata(request.key(), LockTokens.next(),
						FencingCounter.next(files.path()), this.identity, now, now.plus(request.ttl()), this.version);
				byte[] content = LockFileFormat.write(mine).getBytes(StandardCharsets.US_ASCII);
				Path temp = files.writeTemp(name, content);
				try {
					if (state != LockFileState.Missing.INSTANCE) {
						LockFiles.replace(lock, temp);
						logReclaim(request.key(), state, now);
						return acquired.apply(mine);
					}
					if (files.create(lock, temp, content)) {
						return acquired.apply(mine);
					}
					// created by something that ignores the guard: read it again
				}
				finally {
					LockFiles.deleteQuietly(temp);
				}
			}
			throw new IOException("Lock file " + lock + " keeps appearing and disappearing");
		});
	}

	/** The answer for a lock that is held, or {@code null} if it is free or stale. */
	private AcquireResult.@Nullable Held held(LockFileState state, Instant now, Duration ttl) {
		if (state instanceof Present present) {
			LockMetadata holder = present.metadata();
			boolean dead = this.options.detectDeadHolders()
					&& holder.holder().isKnownDead(this.identity, this.options.procRoot());
			return (holder.isExpired(now) || dead) ? null
					: new AcquireResult.Held(holder.remainingTtl(now), holder.age(now));
		}
		if (state instanceof Unreadable unreadable) {
			// held for one TTL of the request from its last change
			Instant staleAt = unreadable.modified().plus(ttl);
			if (now.isBefore(staleAt)) {
				// the file's time can be finer than the clock's: never a negative age, never more than a TTL
				Duration age = Duration.between(unreadable.modified(), now);
				Duration left = Duration.between(now, staleAt);
				return new AcquireResult.Held((left.compareTo(ttl) > 0) ? ttl : left,
						age.isNegative() ? Duration.ZERO : age);
			}
		}
		return null;
	}

	private void logReclaim(String key, LockFileState state, Instant now) {
		if (state instanceof Present present) {
			ProcessIdentity holder = present.metadata().holder();
			boolean expired = present.metadata().isExpired(now);
			logger.atLevel(expired ? Level.INFO : Level.WARN)
				.log("Reclaimed the lock '{}' of pid {} on {}: {}ms after {}", key, holder.pid(), holder.host(),
						Duration.between(expired ? present.metadata().expiresAt() : present.metadata().startedAt(), now)
							.toMillis(),
						expired ? "it expired" : "it was taken, by a process that ended without releasing it");
		}
		else {
			logger.warn("Replaced the unreadable lock file of '{}', last modified {}", key,
					((Unreadable) state).modified());
		}
	}

	/** Deletes the lock file if it holds the lease's token; a lapsed lock is not the owner's. */
	ReleaseResult release(LockLease lease) {
		LockFileName name = LockFileName.of(lease.key());
		return run("release", lease.key(), (files) -> {
			Path lock = name.lockFile(files.path());
			if (!(files.read(lock) instanceof Present present) || !present.metadata().isOwnedBy(lease.token())) {
				return ReleaseResult.NOT_OWNER;
			}
			Files.deleteIfExists(lock);
			return present.metadata().isExpired(now()) ? ReleaseResult.NOT_OWNER : ReleaseResult.RELEASED;
		});
	}

	/** Whether the lock file holds the lease's token and has not lapsed. */
	boolean isOwned(LockLease lease) {
		LockFileName name = LockFileName.of(lease.key());
		return run("fencingToken", lease.key(), (files) -> files.read(name.lockFile(files.path())) instanceof Present present
				&& present.metadata().isOwnedBy(lease.token()) && !present.metadata().isExpired(now()));
	}

	/** Moves the expiry of the lock file, if it holds the lease's token and has not lapsed. */
	boolean extend(LockLease lease, Duration ttl) {
		LockFileName name = LockFileName.of(lease.key());
		return run("extend", lease.key(), (files) -> {
			Path lock = name.lockFile(files.path());
			Instant now = now();
			if (!(files.read(lock) instanceof Present present) || !present.metadata().isOwnedBy(lease.token())
					|| present.metadata().isExpired(now)) {
				return false;
			}
			LockMetadata extended = present.metadata().withExpiresAt(now.plus(ttl));
			Path temp = files.writeTemp(name, LockFileFormat.write(extended).getBytes(StandardCharsets.US_ASCII));
			try {
				LockFiles.replace(lock, temp);
			}
			finally {
				LockFiles.deleteQuietly(temp);
			}
			return true;
		});
	}

	/**
	 * Runs a step under the guard, in the prepared directory; if the directory vanished
	 * (deleted by hand or by a cleaner), prepares it again and retries once.
	 */
	private <T> T run(String operation, String key, LockGuard.Step<T> step) {
		long timeout = this.options.guardTimeout().toNanos();
		try {
			LockFiles files = files();
			try {
				return LockGuard.call(files, timeout, step);
			}
			catch (NoSuchFileException ex) {
				if (Files.isDirectory(files.path())) {
					throw ex;
				}
				this.prepared = null;
				return LockGuard.call(files(), timeout, step);
			}
		}
		catch (IOException ex) {
			throw failure(operation, key, ex.getMessage(), CODES.getOrDefault(ex.getClass(),
					LockStoreException.GENERIC_CODE), ex);
		}
		catch (GuardTimeoutException ex) {
			throw failure(operation, key, "its guard stayed taken for " + this.options.guardTimeout().toMillis()
					+ "ms (another process is stopped or stuck while holding it)", "TIMEOUT", ex);
		}
		catch (UnsafeLockDirectoryException ex) {
			throw failure(operation, key, ex.getMessage(), "UNSAFE_DIRECTORY", ex);
		}
		catch (LockStoreException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw failure(operation, key, ex.toString(), LockStoreException.GENERIC_CODE, ex);
		}
	}

	private LockStoreException failure(String operation, String key, @Nullable String why, String code,
			Exception cause) {
		return new LockStoreException("Cannot " + operation + " the lock '" + key + "' in " + this.directory + ": "
				+ why, code, cause);
	}

	private LockFiles files() throws IOException {
		LockFiles files = this.prepared;
		if (files == null) {
			// two threads may prepare at once: creating the directory is idempotent
			files = LockFiles.prepare(this.directory, this.options.hardLinks());
			this.prepared = files;
		}
		return files;
	}

	private Instant now() {
		return this.options.clock().instant().truncatedTo(ChronoUnit.MILLIS);
	}

}
