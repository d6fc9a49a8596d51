package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The short critical section of a lock directory among all threads and processes of the
 * host, so that reading a lock file and acting on it is one step: an OS lock on
 * {@value #FILE_NAME}, which the kernel drops when a process dies, plus a fair lock inside
 * the JVM, as OS locks belong to the process. One guard per directory: every acquire draws
 * its token from the directory's one {@link FencingCounter} anyway. The OS lock is polled
 * with a pause growing to 1ms up to the store's timeout (its holder keeps it for
 * microseconds unless stopped or stuck); a guard file replaced behind the store's back is
 * noticed by its file key and opened again. An interrupt neither cuts a step short nor is
 * lost.
 */
final class LockGuard {

	/** Name of the guard file in the lock directory; never a lock or temporary file name. */
	static final String FILE_NAME = "lockable.guard";

	private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private static final Object MISSING = new Object();

	/** One JVM lock per real directory path, shared by every store of the JVM. */
	private static final ConcurrentHashMap<Path, ReentrantLock> jvmLocks = new ConcurrentHashMap<>();

	private LockGuard() {
	}

	/**
	 * Runs a step while no other thread or process runs one in the directory.
	 * @throws GuardTimeoutException if the guard stayed taken for the whole timeout
	 */
	static <T> T call(Path real, Duration timeout, Step<T> step) throws IOException, GuardTimeoutException {
		long deadline = System.nanoTime() + timeout.toNanos();
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
				Path file = real.resolve(FILE_NAME);
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
