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
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The short critical section of a lock directory among all threads and processes of the
 * host, so that reading a lock file and acting on it (create, reclaim, release, extend,
 * draw a fencing token) is one step: an OS lock on the guard file {@value #FILE_NAME},
 * which the kernel drops when a process dies, plus a lock inside the JVM, as OS locks
 * belong to the process. One guard per directory, not per key: every acquire draws its
 * token from the directory's one fencing counter anyway, and no guard file is left behind
 * per key ever used.
 * <p>
 * The wait is bounded: the OS lock is polled with a pause growing to 1ms (its holder keeps
 * it for microseconds unless stopped or stuck). The guard file is opened for each step and
 * closed after it, under the JVM lock, so that closing it never drops another thread's OS
 * lock; a guard file replaced behind the store's back is noticed by its file key and
 * opened again. An interrupt neither cuts the wait short nor is lost.
 */
final class LockGuard {

	/** Name of the guard file in the lock directory; never a lock or temporary file name. */
	static final String FILE_NAME = "lockable.guard";

	private static final Logger logger = LoggerFactory.getLogger(LockGuard.class);

	private static final Object MISSING = new Object();

	private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** One JVM lock per real directory path, shared by every store of the JVM. */
	private static final ConcurrentHashMap<Path, ReentrantLock> jvmLocks = new ConcurrentHashMap<>();

	private LockGuard() {
	}

	/**
	 * Runs a step while no other thread or process runs one in the directory.
	 * @throws GuardTimeoutException if the guard stayed taken for the whole timeout
	 */
	static <T> T call(LockFiles files, long timeoutNanos, Step<T> step) throws IOException, GuardTimeoutException {
		long deadline = System.nanoTime() + timeoutNanos;
		boolean[] interrupted = { Thread.interrupted() };
		ReentrantLock jvmLock = jvmLocks.computeIfAbsent(files.path(), (path) -> new ReentrantLock());
		try {
			lockJvm(jvmLock, deadline, interrupted);
			try {
				Path file = files.path().resolve(FILE_NAME);
				for (int attempt = 1; attempt <= 5; attempt++) {
					// the path names one file before opening and once locked: the channel has that file
					Object before = fileKey(file);
					FileChannel channel = FileChannel.open(file,
							Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
							FilePermissions.file(file));
					try {
						lock(channel, deadline, interrupted);
						if (before != MISSING && Objects.equals(before, fileKey(file))) {
							return step.run(files);
						}
					}
					finally {
						close(channel);
					}
				}
				throw new IOException("Guard file " + file + " keeps being replaced");
			}
			finally {
				jvmLock.unlock();
			}
		}
		finally {
			if (interrupted[0]) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static void lockJvm(ReentrantLock lock, long deadline, boolean[] interrupted)
			throws GuardTimeoutException {
		while (true) {
			try {
				if (lock.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
					return;
				}
				throw new GuardTimeoutException();
			}
			catch (InterruptedException ex) {
				interrupted[0] = true;
			}
		}
	}

	private static void lock(FileChannel channel, long deadline, boolean[] interrupted)
			throws IOException, GuardTimeoutException {
		for (long pause = 10_000;; pause = Math.min(pause * 2, MAX_PAUSE_NANOS)) {
			try {
				if (channel.tryLock() != null) {
					return;
				}
			}
			catch (OverlappingFileLockException ex) {
				// another channel of this JVM holds it (the directory by a second real path): wait
			}
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				throw new GuardTimeoutException();
			}
			LockSupport.parkNanos(Math.min(pause, remaining));
			interrupted[0] |= Thread.interrupted();
		}
	}

	/**
	 * Closes the channel, which releases its OS lock, and never throws: once a step changed
	 * a lock file, its caller must learn what it did, not a failure that contradicts the file.
	 */
	private static void close(FileChannel channel) {
		try {
			channel.close();
		}
		catch (IOException ex) {
			logger.warn("Could not close the lock guard; the change made under it stands", ex);
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
	 * A step on the lock files of a directory, run under its guard.
	 */
	@FunctionalInterface
	interface Step<T> {

		T run(LockFiles files) throws IOException;

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
