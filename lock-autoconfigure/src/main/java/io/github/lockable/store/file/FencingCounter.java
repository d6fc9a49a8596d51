package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;

import io.github.lockable.store.LockTokens;

/**
 * The fencing counter of a lock directory: one file, {@value #FILE_NAME}, holding the last
 * fencing token issued, in decimal. Shared by every key, so the directory holds one
 * counter however many keys are used, and a token is greater than every token issued
 * before for any key.
 * <p>
 * The callers hold the counter's guard ({@link LockGuard#callOnCounter}). A new value is
 * written to a temporary file, forced to disk and renamed over the counter, so a crash
 * leaves the old value or the new one, never a partial file; the value is written before
 * the lock that carries it is published, so a crash may skip a value but never issues
 * one twice. A missing file starts the count at 1; a file that is not a number fails the
 * acquire rather than start again.
 */
final class FencingCounter {

	/** Name of the counter file; never a lock, temporary or guard file name. */
	static final String FILE_NAME = "fence.counter";

	/** Far more digits than any long has. */
	private static final int MAX_SIZE = 64;

	private FencingCounter() {
	}

	/**
	 * Increments the counter.
	 * @param directory the lock directory
	 * @return the new value, at least 1
	 * @throws IOException if the counter cannot be read or written, or is not a number
	 */
	static long next(Path directory) throws IOException {
		Path counter = directory.resolve(FILE_NAME);
		long next = Math.addExact(read(counter), 1);
		Path temp = directory.resolve(FILE_NAME + "." + LockTokens.next() + ".tmp");
		try {
			write(temp, (next + "\n").getBytes(StandardCharsets.US_ASCII));
			try {
				Files.move(temp, counter, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(temp, counter, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		finally {
			Files.deleteIfExists(temp);
		}
		return next;
	}

	/**
	 * The last value issued, 0 if none.
	 */
	static long read(Path counter) throws IOException {
		byte[] content;
		try (FileChannel channel = FileChannel.open(counter, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
			if (channel.size() > MAX_SIZE) {
				throw new IOException("Fencing counter " + counter + " is not a number");
			}
			ByteBuffer buffer = ByteBuffer.allocate(MAX_SIZE);
			while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
				// read to the end
			}
			content = new byte[buffer.position()];
			buffer.flip().get(content);
		}
		catch (NoSuchFileException ex) {
			return 0;
		}
		try {
			long value = Long.parseLong(new String(content, StandardCharsets.US_ASCII).strip());
			if (value < 0) {
				throw new NumberFormatException();
			}
			return value;
		}
		catch (NumberFormatException ex) {
			throw new IOException("Fencing counter " + counter + " is not a number");
		}
	}

	private static void write(Path temp, byte[] content) throws IOException {
		try (FileChannel channel = FileChannel.open(temp,
				Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
				FilePermissions.file(temp))) {
			ByteBuffer buffer = ByteBuffer.wrap(content);
			while (buffer.hasRemaining()) {
				channel.write(buffer);
			}
			channel.force(false);
		}
	}

}
