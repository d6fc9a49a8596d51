package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.file.LockFileFormat.MalformedLockFileException;

/**
 * The lock directory of a store: created owner-only when first needed (again if it was
 * deleted), refused if unsafe (see {@link DirectorySafety}), and the file operations on its
 * lock files, each run as a step under its {@link LockGuard}.
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
	<T> T run(String operation, String key, LockGuard.Step<T> step) {
		try {
			Path real = prepared();
			try {
				return LockGuard.call(real, this.timeout, step);
			}
			catch (NoSuchFileException ex) {
				if (Files.isDirectory(real)) {
					throw ex;
				}
				this.prepared = null;
				return LockGuard.call(prepared(), this.timeout, step);
			}
		}
		catch (IOException ex) {
			throw failure(operation, key, ex.getMessage(), CODES.getOrDefault(ex.getClass(), LockStoreException.GENERIC_CODE), ex);
		}
		catch (LockGuard.GuardTimeoutException ex) {
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

}
