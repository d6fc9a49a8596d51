package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockTokens;
import io.github.lockable.store.file.LockFileFormat.MalformedLockFileException;

/**
 * The file operations on the lock files of one existing directory; the callers hold its
 * {@link LockGuard}.
 * <p>
 * A new lock is written completely to a temporary file and published with a hard link:
 * {@link Files#createLink} is atomic and fails if the lock file exists, so nobody ever
 * sees a half-written lock. Where the file system has no hard links, the lock file is
 * created exclusively ({@code CREATE_NEW}) and written in place; a writer that dies
 * halfway leaves a partial file, which {@link #read} reports as unreadable. An existing
 * lock is replaced with an atomic rename of a complete temporary file. Lock files are not
 * forced to disk (a lock only matters while its holder runs, and a crash of the host ends
 * every holder); the fencing counter is.
 */
final class LockFiles {

	private static final Logger logger = LoggerFactory.getLogger(LockFiles.class);

	/** Far more than a lock file with the longest key; anything larger is not ours. */
	private static final int MAX_SIZE = 1 << 20;

	private final Path path;

	private volatile boolean hardLinks;

	private LockFiles(Path path, boolean hardLinks) {
		this.path = path;
		this.hardLinks = hardLinks;
	}

	/** The directory's real path. */
	Path path() {
		return this.path;
	}

	/**
	 * Creates the directory if missing, owner-only where the file system has POSIX
	 * permissions, and refuses it if another user could tamper with it.
	 * @throws UnsafeLockDirectoryException if another user could tamper with it
	 */
	static LockFiles prepare(Path directory, boolean hardLinks) throws IOException {
		try {
			// before creating anything through a link another user owns, and after, for the new part
			DirectorySafety.check(directory);
			if (!Files.isDirectory(directory)) {
				// succeeds as well when another process creates the directory meanwhile
				Files.createDirectories(directory, FilePermissions.directory(directory));
				DirectorySafety.check(directory);
			}
		}
		catch (FileSystemException ex) {
			if (!(ex instanceof AccessDeniedException) && !(ex instanceof NoSuchFileException)) {
				refuseNotDirectory(directory);
			}
			throw ex;
		}
		return new LockFiles(directory.toRealPath(), hardLinks);
	}

	/** Names the error by its type: the first existing path element is not a directory. */
	private static void refuseNotDirectory(Path directory) throws NotDirectoryException {
		for (Path path = directory; path != null; path = path.getParent()) {
			if (Files.exists(path)) {
				if (!Files.isDirectory(path)) {
					throw new NotDirectoryException(path.toString());
				}
				return;
			}
		}
	}

	/** Writes a complete temporary file next to the lock file; the caller deletes it. */
	Path writeTemp(LockFileName name, byte[] content) throws IOException {
		// a random name of its own, never the owner's token: file names show up in messages
		Path temp = name.tempFile(this.path, LockTokens.next());
		write(temp, content, false);
		return temp;
	}

	/**
	 * Publishes a new lock file, unless one exists.
	 * @return {@code true} if the lock file was created, {@code false} if it exists
	 */
	boolean create(Path lock, Path temp, byte[] content) throws IOException {
		if (this.hardLinks) {
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
				logger.debug("No hard links in {}; lock files are written in place", this.path);
				this.hardLinks = false;
			}
		}
		try {
			write(lock, content, false);
			return true;
		}
		catch (FileAlreadyExistsException ex) {
			return false;
		}
	}

	/** Atomically replaces a file with a complete temporary file. */
	static void replace(Path file, Path temp) throws IOException {
		try {
			Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (AtomicMoveNotSupportedException ex) {
			// still one step for every process that follows the guard
			Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
		}
	}

	LockFileState read(Path lock) throws IOException {
		byte[] content;
		try {
			if (Files.size(lock) > MAX_SIZE) {
				return unreadable(lock);
			}
			content = Files.readAllBytes(lock);
		}
		catch (NoSuchFileException ex) {
			return LockFileState.Missing.INSTANCE;
		}
		for (byte b : content) {
			if (b < 0) {
				return unreadable(lock);
			}
		}
		try {
			return new LockFileState.Present(LockFileFormat.read(new String(content, StandardCharsets.US_ASCII)));
		}
		catch (MalformedLockFileException ex) {
			logger.debug("{}: {}", lock, ex.getMessage());
			return unreadable(lock);
		}
	}

	private static LockFileState unreadable(Path lock) throws IOException {
		try {
			return new LockFileState.Unreadable(Files.getLastModifiedTime(lock, LinkOption.NOFOLLOW_LINKS).toInstant());
		}
		catch (NoSuchFileException ex) {
			return LockFileState.Missing.INSTANCE;
		}
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
				FilePermissions.file(file));
		boolean written = false;
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
