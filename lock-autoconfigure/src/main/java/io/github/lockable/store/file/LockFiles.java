package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.file.LockFileFormat.MalformedLockFileException;

/**
 * The file operations on lock files of one directory. The callers hold the
 * {@link LockGuard} of the name they touch.
 * <p>
 * A new lock is written completely to a temporary file and then published with a hard
 * link: {@link Files#createLink} is atomic and fails if the lock file exists, and nobody
 * ever sees a half-written lock. Where the file system has no hard links, the lock file is
 * created exclusively ({@code CREATE_NEW}) and written in place; a writer that dies
 * halfway leaves a partial file, which {@link #read} reports as unreadable. An existing
 * lock is replaced with an atomic rename of a complete temporary file.
 * <p>
 * Nothing is forced to disk: a lock only matters while its holder runs, and a crash of
 * the host ends every holder.
 */
final class LockFiles {

	private static final Logger logger = LoggerFactory.getLogger(LockFiles.class);

	/** Far more than a lock file with the longest key; anything larger is not ours. */
	private static final int MAX_SIZE = 1 << 20;

	private final Path directory;

	private volatile boolean hardLinks;

	LockFiles(Path directory, boolean hardLinks) {
		this.directory = directory;
		this.hardLinks = hardLinks;
	}

	/**
	 * Writes a complete temporary file next to the lock file.
	 * @param name the lock name
	 * @param content the content
	 * @return the temporary file; the caller deletes it
	 */
	Path writeTemp(LockFileName name, byte[] content) throws IOException {
		// a random name of its own, never the owner's token: file names show up in messages
		Path temp = name.tempFile(this.directory, LockTokens.next());
		createAndWrite(temp, content);
		return temp;
	}

	/**
	 * Publishes a new lock file, unless one exists.
	 * @param lock the lock file
	 * @param temp a complete temporary file with the content
	 * @param content the content, for file systems without hard links
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
				if (ex instanceof FileSystemException fileSystemException && !isLinkUnsupported(fileSystemException)) {
					throw fileSystemException;
				}
				logger.debug("No hard links in {}; lock files are written in place", this.directory);
				this.hardLinks = false;
			}
		}
		try {
			createAndWrite(lock, content);
			return true;
		}
		catch (FileAlreadyExistsException ex) {
			return false;
		}
	}

	/**
	 * {@code EPERM}, or a message no errno name was found for: {@code EOPNOTSUPP}, which
	 * cannot be learned harmlessly, in another language than English. Writing in place
	 * after a wrong guess is still exclusive, and fails loudly if the real cause remains.
	 */
	private static boolean isLinkUnsupported(FileSystemException ex) {
		String code = ErrorCodes.of(ex);
		return code.equals("EPERM") || code.equals(LockStoreException.GENERIC_CODE)
				|| (ex.getReason() != null && ex.getReason().contains("not supported"));
	}

	/**
	 * Atomically replaces a lock file with a complete temporary file.
	 * @param lock the lock file
	 * @param temp the temporary file, gone afterwards
	 */
	void replace(Path lock, Path temp) throws IOException {
		try {
			Files.move(temp, lock, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (AtomicMoveNotSupportedException ex) {
			// still one step for every process that follows the guard
			Files.move(temp, lock, StandardCopyOption.REPLACE_EXISTING);
		}
	}

	/**
	 * Reads a lock file.
	 * @param lock the lock file
	 * @return what it holds
	 */
	LockFileState read(Path lock) throws IOException {
		byte[] content;
		try (SeekableByteChannel channel = Files.newByteChannel(lock, StandardOpenOption.READ,
				LinkOption.NOFOLLOW_LINKS)) {
			long size = channel.size();
			if (size > MAX_SIZE) {
				return unreadable(lock);
			}
			ByteBuffer buffer = ByteBuffer.allocate((int) size + 1);
			while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
				// read to the end, or one byte past the size seen, which means it is still growing
			}
			if (!buffer.hasRemaining()) {
				return unreadable(lock);
			}
			content = new byte[buffer.position()];
			buffer.flip().get(content);
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
			Instant modified = Files.getLastModifiedTime(lock, LinkOption.NOFOLLOW_LINKS).toInstant();
			return new LockFileState.Unreadable(modified);
		}
		catch (NoSuchFileException ex) {
			return LockFileState.Missing.INSTANCE;
		}
	}

	/**
	 * Deletes a lock file.
	 * @param lock the lock file
	 */
	void delete(Path lock) throws IOException {
		Files.deleteIfExists(lock);
	}

	/**
	 * Deletes a temporary file, if it is still there; a failure only leaves a small file.
	 * @param temp the temporary file
	 */
	void deleteQuietly(Path temp) {
		try {
			Files.deleteIfExists(temp);
		}
		catch (IOException ex) {
			logger.debug("Could not delete {}", temp, ex);
		}
	}

	/**
	 * Creates a file that must not exist and writes it; if the write fails (a full disk),
	 * the partial file is deleted again.
	 */
	private void createAndWrite(Path file, byte[] content) throws IOException {
		SeekableByteChannel channel = Files.newByteChannel(file,
				Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
				FilePermissions.file(file));
		boolean written = false;
		try (channel) {
			ByteBuffer buffer = ByteBuffer.wrap(content);
			while (buffer.hasRemaining()) {
				channel.write(buffer);
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
