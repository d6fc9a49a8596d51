package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

import io.github.lockable.store.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;

/**
 * Causes real file errors in a process of its own, so that a test can give it another C
 * locale, and prints the C library's message for {@code ENOTDIR}, then one line
 * {@code <expected> <code>} per error.
 * <p>
 * Arguments: {@code <scratch directory>}.
 */
public final class ErrorCodesProbe {

	private ErrorCodesProbe() {
	}

	public static void main(String[] args) throws IOException {
		Path scratch = Path.of(args[0]);
		Path regular = Files.writeString(scratch.resolve("regular"), "not a directory");
		try {
			Files.createDirectories(regular.resolve("locks"));
		}
		catch (IOException ex) {
			System.out.println(ex.getMessage());
		}
		System.out.println("ENOTDIR " + storeFailure(regular.resolve("locks")));
		System.out.println("ENAMETOOLONG " + storeFailure(scratch.resolve("n".repeat(300))));
		try (SeekableByteChannel full = Files.newByteChannel(Path.of("/dev/full"), StandardOpenOption.WRITE)) {
			full.write(ByteBuffer.wrap(new byte[1]));
		}
		catch (IOException ex) {
			System.out.println("ENOSPC " + ErrorCodes.of(ex));
		}
		try {
			Files.createLink(scratch.resolve("link"), scratch);
		}
		catch (IOException ex) {
			System.out.println("EPERM " + ErrorCodes.of(ex));
		}
		System.out.flush();
	}

	private static String storeFailure(Path directory) {
		AcquireResult result = Stages.join(new FileLockStore(directory).acquire(new LockRequest("job", Duration.ofSeconds(30))));
		return (result instanceof AcquireResult.Failed failed) ? failed.cause().getCode() : result.toString();
	}

}
