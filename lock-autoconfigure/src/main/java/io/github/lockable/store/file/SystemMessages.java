package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * The C library's error messages as this process gets them, in whatever language its C
 * locale chose, learned by causing each error once where that is harmless: creating a file
 * under {@code /dev/null}, opening {@code /} for writing, a name longer than any file system
 * allows, {@code O_NOFOLLOW} on {@code /proc/self}, writing to {@code /dev/full}, a hard
 * link to a directory. Errors that cannot be caused harmlessly ({@code EROFS},
 * {@code EDQUOT}, {@code EIO}, {@code EMFILE}) are not learned. Learned on first use, as
 * only a failure needs them.
 *
 * @param texts errno name by message text
 */
record SystemMessages(Map<String, String> texts) {

	/** What the JDK appends to the message of {@code ELOOP} from a {@code NOFOLLOW_LINKS} open. */
	private static final String NOFOLLOW_SUFFIX = " (NOFOLLOW_LINKS specified)";

	static SystemMessages current() {
		return Learned.MESSAGES;
	}

	static SystemMessages learn() {
		Map<String, String> texts = new LinkedHashMap<>();
		Path temp = Path.of(System.getProperty("java.io.tmpdir"));
		// Creating, not reading: Java 25 reports a stat through a regular file as NoSuchFileException.
		add(texts, "ENOTDIR", () -> Files.createFile(Path.of("/dev/null/lockable")));
		add(texts, "EISDIR", () -> FileChannel.open(Path.of("/"), StandardOpenOption.WRITE).close());
		add(texts, "ENAMETOOLONG", () -> Files.readAttributes(temp.resolve("x".repeat(300)), BasicFileAttributes.class));
		add(texts, "ELOOP", () -> Files
			.newByteChannel(Path.of("/proc/self"), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)
			.close());
		add(texts, "ENOSPC", () -> {
			try (SeekableByteChannel full = Files.newByteChannel(Path.of("/dev/full"), StandardOpenOption.WRITE)) {
				full.write(ByteBuffer.wrap(new byte[1]));
			}
		});
		add(texts, "EPERM", () -> {
			Path link = Files.createLink(temp.resolve("lockable-probe-" + UUID.randomUUID()), temp);
			Files.deleteIfExists(link);
		});
		return new SystemMessages(Collections.unmodifiableMap(texts));
	}

	/**
	 * Records the message of a probe's failure. A probe that fails otherwise than
	 * expected (such as {@code ENOENT} where there is no {@code /dev/full}) gives an
	 * exception type or message known already, and is left out.
	 */
	private static void add(Map<String, String> texts, String code, Probe probe) {
		String text = message(probe);
		if (text != null && !text.isBlank() && !texts.containsKey(text)) {
			texts.put(text, code);
		}
	}

	private static @Nullable String message(Probe probe) {
		try {
			probe.run();
			return null;
		}
		catch (FileSystemException ex) {
			return (ex.getClass() == FileSystemException.class) ? ex.getReason() : null;
		}
		catch (IOException ex) {
			if (ex.getClass() != IOException.class) {
				return null;
			}
			String message = ex.getMessage();
			return (message != null && message.endsWith(NOFOLLOW_SUFFIX))
					? message.substring(0, message.length() - NOFOLLOW_SUFFIX.length()) : message;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	@FunctionalInterface
	private interface Probe {

		void run() throws IOException;

	}

	private static final class Learned {

		private static final SystemMessages MESSAGES = learn();

	}

}
