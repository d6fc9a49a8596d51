package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.file.LockFileFormat.MalformedLockFileException;

/**
 * The lock directory of a store: created owner-only when first needed (again if it was
 * deleted), refused if unsafe (see {@link DirectorySafety}), and the file operations on its
 * lock files, each run as a step under its guard.
 * <p>
 * The guard is the short critical section of the directory among all threads and processes
 * of the host, so that reading a lock file and acting on it is one step: an OS lock on
 * {@value #GUARD_FILE}, which the kernel drops when a process dies, plus a lock inside the
 * JVM, as OS locks belong to the process. One guard per directory: every acquire draws its
 * token from the directory's one {@link FencingCounter} anyway. The OS lock is polled with a
 * pause growing to 1ms up to the store's timeout (its holder keeps it for microseconds
 * unless stopped or stuck); a guard file replaced behind the store's back is noticed by its
 * file key and opened again. An interrupt neither cuts a step short nor is lost.
 * <p>
 * A new lock is written completely to a temporary file and published with a hard link,
 * atomic and failing if the lock file exists, so nobody sees a half-written lock; where
 * the file system has no hard links, it is created exclusively and written in place (a
 * writer that dies halfway leaves a file that reads as unreadable). An existing lock is
 * replaced by an atomic rename. Lock files are not forced to disk (a crash of the host ends
 * every holder); the fencing counter is. A failure is a {@link LockStoreException} coded by
 * the exception's type ({@code EACCES}, {@code ENOENT}, ...), {@code TIMEOUT} for the guard.
 */
final class LockDirectory {

	/** Name of the guard file; never a lock or temporary file name. */
	static final String GUARD_FILE = "lockable.guard";

	private static final Logger logger = LoggerFactory.getLogger(LockDirectory.class);

	/** Far more than a lock file with the longest key; anything larger is not ours. */
	private static final int MAX_SIZE = 1 << 20;

	private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private static final Object MISSING = new Object();

	private static final Map<Class<?>, String> CODES = Map.of(AccessDeniedException.class, "EACCES",
			NoSuchFileException.class, "ENOENT", NotDirectoryException.class, "ENOTDIR",
			FileAlreadyExistsException.class, "EEXIST", DirectoryNotEmptyException.class, "ENOTEMPTY",
			FileSystemLoopException.class, "ELOOP");

	/** One JVM lock per real directory path, shared by every store of the JVM. */
	private static final ConcurrentHashMap<Path, ReentrantLock> jvmLocks = new ConcurrentHashMap<>();

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
			// what cannot be read yet is checked again by the first call, which prepares the directory
			DirectorySafety.check(directory);
		}
		catch (IOException ex) {
			logger.debug("Could not check lock directory {} yet", directory, ex);
		}
	}

	/**
	 * Runs a step under the guard, given the directory's real path; if the directory
	 * vanished (deleted by hand or by a cleaner), prepares it again and retries once.
	 */
	<T> T run(String operation, String key, Step<T> step) {
		try {
			Path real = prepared();
			try {
				return guarded(real, step);
			}
			catch (NoSuchFileException ex) {
				if (Files.isDirectory(real)) {
					throw ex;
				}
				this.prepared = null;
				return guarded(prepared(), step);
			}
		}
		catch (IOException ex) {
			throw failure(operation, key, ex.getMessage(), CODES.getOrDefault(ex.getClass(), LockStoreException.GENERIC_CODE), ex);
		}
		catch (GuardTimeoutException ex) {
			throw failure(operation, key, "its guard stayed taken for " + this.timeout.toMillis()
					+ "ms (another process is stopped or stuck while holding it)", "TIMEOUT", ex);
		}
		catch (UnsafeLockDirectoryException ex) {
			throw failure(operation, key, ex.getMessage(), "UNSAFE_DIRECTORY", ex);
		}
		catch (RuntimeException ex) {
			throw (ex instanceof LockStoreException) ? ex
					: failure(operation, key, ex.toString(), LockStoreException.GENERIC_CODE, ex);
		}
	}

	private LockStoreException failure(String operation, String key, @Nullable String why, String code, Exception cause) {
		return new LockStoreException("Cannot " + operation + " the lock '" + key + "' in " + this.directory + ": " + why,
				code, cause);
	}

	/** The real path of the directory, created first if missing, and checked before and after. */
	private Path prepared() throws IOException {
		Path real = this.prepared;
		if (real != null) {
			return real;
		}
		try {
			DirectorySafety.check(this.directory);
			if (!Files.isDirectory(this.directory)) {
				// succeeds as well when another process creates the directory meanwhile
				Files.createDirectories(this.directory, DirectorySafety.ownerOnlyDirectory(this.directory));
				DirectorySafety.check(this.directory);
			}
		}
		catch (FileSystemException ex) {
			if (!(ex instanceof AccessDeniedException) && !(ex instanceof NoSuchFileException)) {
				// named by its type: the first existing path element is not a directory
				for (Path path = this.directory; path != null; path = path.getParent()) {
					if (Files.exists(path)) {
						if (!Files.isDirectory(path)) {
							throw new NotDirectoryException(path.toString());
						}
						break;
					}
				}
			}
			throw ex;
		}
		real = this.directory.toRealPath();
		this.prepared = real;
		return real;
	}

	private <T> T guarded(Path real, Step<T> step) throws IOException, GuardTimeoutException {
		long deadline = System.nanoTime() + this.timeout.toNanos();
		// a file channel closes itself when its thread is interrupted: the interrupt waits for the step
		boolean interrupted = Thread.interrupted();
		ReentrantLock jvmLock = jvmLocks.computeIfAbsent(real, (path) -> new ReentrantLock(true));
		try {
			while (true) {
				try {
					if (!jvmLock.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
						throw new GuardTimeoutException();
					}
					break;
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			try {
				Path file = real.resolve(GUARD_FILE);
				for (int attempt = 1; attempt <= 5; attempt++) {
					Object before = fileKey(file);
					try (FileChannel channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE,
							StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), DirectorySafety.ownerOnlyFile(file))) {
						for (long pause = 10_000; !tryLock(channel); pause = Math.min(pause * 2, MAX_PAUSE_NANOS)) {
							long remaining = deadline - System.nanoTime();
							if (remaining <= 0) {
								throw new GuardTimeoutException();
							}
							LockSupport.parkNanos(Math.min(pause, remaining));
							interrupted |= Thread.interrupted();
						}
						// the path named one file before opening and once locked: the channel has that file
						if (before != MISSING && Objects.equals(before, fileKey(file))) {
							return step.run(real);
						}
					}
				}
				throw new IOException("Guard file " + file + " keeps being replaced");
			}
			finally {
				jvmLock.unlock();
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static boolean tryLock(FileChannel channel) throws IOException {
		try {
			return channel.tryLock() != null;
		}
		catch (OverlappingFileLockException ex) {
			// another channel of this JVM holds it (the directory by a second real path): wait
			return false;
		}
	}

	/** The file's key, {@link #MISSING} without a file, {@code null} where the file system has none. */
	private static @Nullable Object fileKey(Path file) throws IOException {
		try {
			return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
		}
		catch (NoSuchFileException ex) {
			return MISSING;
		}
	}

	static LockFileState read(Path lock) throws IOException {
		try {
			if (Files.size(lock) <= MAX_SIZE) {
				return new LockFileState.Present(LockFileFormat.read(Files.readString(lock)));
			}
		}
		catch (NoSuchFileException ex) {
			return LockFileState.Missing.INSTANCE;
		}
		catch (CharacterCodingException | MalformedLockFileException ex) {
			logger.debug("{}: {}", lock, ex.getMessage());
		}
		try {
			return new LockFileState.Unreadable(Files.getLastModifiedTime(lock, LinkOption.NOFOLLOW_LINKS).toInstant());
		}
		catch (NoSuchFileException ex) {
			return LockFileState.Missing.INSTANCE;
		}
	}

	/**
	 * Publishes a complete lock file.
	 * @param create whether the lock file must not exist; else it is replaced
	 * @return {@code false} if it had to be created and exists
	 */
	static boolean publish(Path lock, LockFileName name, byte[] content, boolean create, boolean hardLinks)
			throws IOException {
		// a random name of its own, never the owner's token: file names show up in messages
		Path temp = name.tempFile(lock.getParent(), LockTokens.next());
		write(temp, content, false);
		try {
			if (!create) {
				replace(lock, temp);
				return true;
			}
			if (hardLinks) {
				try {
					Files.createLink(lock, temp);
					return true;
				}
				catch (FileAlreadyExistsException ex) {
					return false;
				}
				catch (UnsupportedOperationException | FileSystemException ex) {
					// EPERM or EOPNOTSUPP, told apart only by a localized message: writing in place is
					// exclusive as well, and fails loudly if the cause was another
					if (ex instanceof AccessDeniedException || ex instanceof NoSuchFileException) {
						throw (IOException) ex;
					}
				}
			}
			write(lock, content, false);
			return true;
		}
		catch (FileAlreadyExistsException ex) {
			return false;
		}
		finally {
			deleteQuietly(temp);
		}
	}

	static void replace(Path file, Path temp) throws IOException {
		Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
	}

	/** Deletes a temporary file, if it is still there; a failure only leaves a small file. */
	static void deleteQuietly(Path temp) {
		try {
			Files.deleteIfExists(temp);
		}
		catch (IOException ex) {
			logger.debug("Could not delete {}", temp, ex);
		}
	}

	/**
	 * Creates a file that must not exist and writes it, forced to disk if asked; a failed
	 * write (a full disk) deletes the partial file again.
	 */
	static void write(Path file, byte[] content, boolean force) throws IOException {
		FileChannel channel = FileChannel.open(file,
				Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
				DirectorySafety.ownerOnlyFile(file));
		boolean written = false;
		// opened outside: a file that exists is not ours to delete
		try (channel) {
			ByteBuffer buffer = ByteBuffer.wrap(content);
			while (buffer.hasRemaining()) {
				channel.write(buffer);
			}
			if (force) {
				channel.force(false);
			}
			written = true;
		}
		finally {
			if (!written) {
				deleteQuietly(file);
			}
		}
	}

	/**
	 * A step on the lock files of the directory, run under its guard.
	 */
	@FunctionalInterface
	interface Step<T> {

		T run(Path directory) throws IOException;

	}

	/**
	 * The guard stayed taken for the whole timeout: another process holding it is stopped
	 * or stuck.
	 */
	static final class GuardTimeoutException extends Exception {

		GuardTimeoutException() {
			super("Timed out waiting for the lock guard", null, false, false);
		}

	}

}
