package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import io.github.lockable.store.LockTokens;

/**
 * The fencing counter of a lock directory: one file, {@value #FILE_NAME}, holding the last
 * fencing token issued, in decimal, shared by every key, so a token is greater than every
 * token issued before in the directory.
 * <p>
 * The callers hold the directory's guard. A new value is forced to disk and renamed over
 * the counter before the lock that carries it is published: a crash may skip a value but
 * never issues one twice. A missing file starts the count again at the clock in
 * microseconds ({@link LockTokens#nextFencingToken(long, long)}), above every token issued
 * before it; a file that is not a number fails the acquire rather than start again.
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
	 * @return the new value, at least 1 and at least the clock in microseconds
	 * @throws IOException if the counter cannot be read or written, or is not a number
	 */
	static long next(Path directory) throws IOException {
		Path counter = directory.resolve(FILE_NAME);
		long next = LockTokens.nextFencingToken(read(counter), Math.multiplyExact(System.currentTimeMillis(), 1000));
		LockDirectory.publish(counter, (next + "\n").getBytes(StandardCharsets.US_ASCII), false, true);
		return next;
	}

	private static long read(Path counter) throws IOException {
		try {
			if (Files.size(counter) <= MAX_SIZE) {
				long value = Long.parseLong(Files.readString(counter, StandardCharsets.US_ASCII).strip());
				if (value >= 0) {
					return value;
				}
			}
		}
		catch (NoSuchFileException ex) {
			return 0;
		}
		catch (NumberFormatException | CharacterCodingException ex) {
			// not a number
		}
		throw new IOException("Fencing counter " + counter + " is not a number");
	}

}
