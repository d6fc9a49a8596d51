package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.StoredLock;
import io.github.lockable.store.file.LockMetadata.MalformedLockFileException;

/**
 * The lock directory of a store: created owner-only when first needed (again if it was
 * deleted), refused if unsafe (see {@link DirectorySafety}), and the file operations on its
 * files, each run as a step under its {@link LockGuard} but for the listing.
 * <p>
 * A file is written completely to a temporary file first, so nobody sees half of it, and
 * published with a hard link, which fails if the file exists, or renamed over the file.
 * Lock files are not forced to disk (a crash of the host ends every holder); the fencing
 * counter is. A failure is a {@link LockStoreException} coded by the exception's type
 * ({@code EACCES}, {@code ENOENT}, ...), {@code TIMEOUT} for the guard.
 */
final class LockDirectory {

	private static final Logger logger = LoggerFactory.getLogger(LockDirectory.class);

	/** Far more than a lock file with the longest key; anything larger is not ours. */
	private static final int MAX_SIZE = 1 << 20;

	private static final Map<Class<?>, String> CODES = Map.of(AccessDeniedException.class, "EACCES",
			NoSuchFileException.class, "ENOENT", NotDirectoryException.class, "ENOTDIR",
			FileAlreadyExistsException.class, "EEXIST", DirectoryNotEmptyException.class, "ENOTEMPTY",
			FileSystemLoopException.class, "ELOOP");

	private final Path directory;

	private final Duration timeout;

	private volatile @Nullable Path prepared;

	/**
	 * @throws UnsafeLockDirectoryException if another user could tamper with the directory
	 */
	LockDirectory(Path directory, Duration timeout) {
		this.directory = directory;
		this.timeout = timeout;
		try {
			DirectorySafety.check(directory);
		}
		catch (IOException ex) {
			// what cannot be read yet is checked again by the first call, which prepares the directory
			logger.debug("Could not check lock directory {} yet", directory, ex);
		}
	}

	/**
	 * Runs a step under the guard, given the directory's real path; if the directory
	 * vanished (deleted by hand or by a cleaner), prepares it again and retries once.
	 */
	<T> T run(String operation, String key, LockGuard.Step<T> step) {
		return inDirectory(operation, "the lock '" + key + "'", (real) -> LockGuard.call(real, this.timeout, step));
	}

	/**
	 * Lists the live locks under a key prefix, sorted by key, without the guard: every file
	 * is published whole, so a reader sees a complete lock file or none, and a scan of many
	 * files does not keep every acquire of the host waiting. Only names that may hold such a
	 * key are read ({@link LockFileName#mayStartWith}), and reading stops at the first live
	 * lock beyond the limit. A file removed or replaced meanwhile is skipped, as are stale
	 * locks and files that are not complete lock files; the token is never copied out.
	 * @param stale the store's stale rule
	 */
	LockListing list(String prefix, int limit, Instant now, Predicate<LockMetadata> stale) {
		return inDirectory("list", "the locks under '" + prefix + "'", (real) -> {
			List<StoredLock> locks = new ArrayList<>();
			Predicate<String> mayMatch = LockFileName.mayStartWith(prefix);
			boolean truncated = false;
			try (DirectoryStream<Path> files = Files.newDirectoryStream(real, "*.lock")) {
				for (Path file : files) {
					String name = file.getFileName().toString();
					if (name.startsWith(".") || !mayMatch.test(name) || !(read(file) instanceof LockMetadata lock)
							|| !lock.job().startsWith(prefix) || stale.test(lock)) {
						continue;
					}
					if (locks.size() == limit) {
						truncated = true;
						break;
					}
					locks.add(stored(lock, now));
				}
			}
			locks.sort(Comparator.comparing(StoredLock::key));
			return new LockListing(locks, truncated);
		});
	}

	private static StoredLock stored(LockMetadata lock, Instant now) {
		@Nullable LockHolder holder = (lock.instance() != null && lock.method() != null)
				? new LockHolder(lock.instance(), lock.holder().pid(), lock.method()) : null;
		return new StoredLock(lock.job(), lock.remainingTtl(now), holder, lock.startedAt());
	}

	private <T> T inDirectory(String operation, String subject, InDirectory<T> step) {
		try {
			Path real = prepared();
			try {
				return step.run(real);
			}
			catch (NoSuchFileException ex) {
				if (Files.isDirectory(real)) {
					throw ex;
				}
				this.prepared = null;
				return step.run(prepared());
			}
		}
		catch (IOException ex) {
			throw failure(operation, subject, ex.getMessage(), CODES.getOrDefault(ex.getClass(), LockStoreException.GENERIC_CODE), ex);
		}
		catch (TimeoutException ex) {
			throw failure(operation, subject, "its guard stayed taken for " + this.timeout.toMillis()
					+ "ms (another process is stopped or stuck while holding it)", "TIMEOUT", ex);
		}
		catch (UnsafeLockDirectoryException ex) {
			throw failure(operation, subject, ex.getMessage(), "UNSAFE_DIRECTORY", ex);
		}
		catch (RuntimeException ex) {
			throw (ex instanceof LockStoreException) ? ex
					: failure(operation, subject, ex.toString(), LockStoreException.GENERIC_CODE, ex);
		}
	}

	@FunctionalInterface
	private interface InDirectory<T> {

		T run(Path real) throws IOException, TimeoutException;

	}

	private LockStoreException failure(String operation, String subject, @Nullable String why, String code, Exception cause) {
		return new LockStoreException("Cannot " + operation + " " + subject + " in " + this.directory + ": " + why,
				code, cause);
	}

	/**
	 * Creates the directory if it is missing, as the next lock would: before the first lock,
	 * or after a cleaner deleted it.
	 */
	void prepare() throws IOException {
		if (!Files.isDirectory(this.directory)) {
			this.prepared = null;
		}
		prepared();
	}

	/** The real path of the directory, created first if missing, and checked before and after. */
	private Path prepared() throws IOException {
		Path real = this.prepared;
		if (real == null) {
			// named by its type, which creating the directory would not give
			for (Path path = this.directory; path != null && !Files.isDirectory(path); path = path.getParent()) {
				// looked at again: another store may have created it as a directory meanwhile
				if (Files.exists(path) && !Files.isDirectory(path)) {
					throw new NotDirectoryException(path.toString());
				}
			}
			DirectorySafety.check(this.directory);
			if (!Files.isDirectory(this.directory)) {
				// succeeds as well when another process creates the directory meanwhile
				Files.createDirectories(this.directory, DirectorySafety.ownerOnlyDirectory(this.directory));
				DirectorySafety.check(this.directory);
			}
			real = this.directory.toRealPath();
			this.prepared = real;
		}
		return real;
	}

	/**
	 * What a lock file holds: nothing ({@link Missing}), a complete lock ({@link LockMetadata}),
	 * or something half written, damaged or foreign ({@link Unreadable}, last modified then).
	 */
	sealed interface LockFileState permits LockFileState.Missing, LockMetadata, LockFileState.Unreadable {

		enum Missing implements LockFileState {

			INSTANCE

		}

		record Unreadable(Instant modified) implements LockFileState {

		}

	}

	/** The lock file's state; one removed at any point of the reading is missing. */
	static LockFileState read(Path lock) throws IOException {
		try {
			try {
				if (Files.size(lock) <= MAX_SIZE) {
					return LockMetadata.read(Files.readString(lock));
				}
			}
			catch (CharacterCodingException | MalformedLockFileException ex) {
				logger.debug("{}: {}", lock, ex.getMessage());
			}
			return new LockFileState.Unreadable(Files.getLastModifiedTime(lock, LinkOption.NOFOLLOW_LINKS).toInstant());
		}
		catch (NoSuchFileException ex) {
			return LockFileState.Missing.INSTANCE;
		}
	}

	/** A hidden temporary file beside the file, of a random name: never the owner's token, as file names show up in messages. */
	static Path tempFile(Path file) {
		return file.resolveSibling("." + file.getFileName() + "." + LockTokens.next() + ".tmp");
	}

	/**
	 * Publishes a complete file.
	 * @param create whether the file must not exist yet
	 * @param force whether the content is forced to disk first
	 * @throws FileAlreadyExistsException if it had to be created and exists
	 */
	static void publish(Path file, byte[] content, boolean create, boolean force) throws IOException {
		Path temp = tempFile(file);
		try {
			try (FileChannel channel = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
					DirectorySafety.ownerOnlyFile(temp))) {
				for (ByteBuffer buffer = ByteBuffer.wrap(content); buffer.hasRemaining();) {
					channel.write(buffer);
				}
				if (force) {
					channel.force(false);
				}
			}
			if (create) {
				Files.createLink(file, temp);
			}
			else {
				Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		finally {
			try {
				Files.deleteIfExists(temp);
			}
			catch (IOException ex) {
				logger.debug("Could not delete {}", temp, ex);
			}
		}
	}

}
