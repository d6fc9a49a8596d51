package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The short critical section of a lock directory among all threads and processes of the
 * host, so that reading a lock file and acting on it is one step: an OS lock on the whole
 * of {@value #FILE_NAME}, which the kernel drops when a process dies, plus a fair lock
 * inside the JVM, as OS locks belong to the process. One guard per directory: every
 * acquire draws its token from the directory's one {@link FencingCounter} anyway. The OS
 * lock is polled with a pause growing to 1ms up to the store's timeout (its holder keeps
 * it for microseconds unless stopped or stuck). An interrupt neither cuts a step short nor
 * is lost: it would close the step's file channels.
 */
final class LockGuard {

	/** Name of the guard file in the lock directory; never a lock or temporary file name. */
	static final String FILE_NAME = "lockable.guard";

	private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** One JVM lock per real directory path, shared by every store of the JVM. */
	private static final ConcurrentHashMap<Path, ReentrantLock> jvmLocks = new ConcurrentHashMap<>();

	private LockGuard() {
	}

	/**
	 * Runs a step while no other thread or process runs one in the directory.
	 * @throws TimeoutException if the guard stayed taken for the whole timeout
	 */
	static <T> T call(Path real, Duration timeout, Step<T> step) throws IOException, TimeoutException {
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean interrupted = Thread.interrupted();
		ReentrantLock jvmLock = jvmLocks.computeIfAbsent(real, (path) -> new ReentrantLock(true));
		try {
			while (true) {
				try {
					if (!jvmLock.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
						throw new TimeoutException();
					}
					break;
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			// closed before the JVM lock is let go, so that closing never drops another thread's OS lock
			try (FileChannel channel = FileChannel.open(real.resolve(FILE_NAME), Set.of(StandardOpenOption.CREATE,
					StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), DirectorySafety.ownerOnlyFile(real))) {
				for (long pause = 10_000; !tryLock(channel); pause = Math.min(pause * 2, MAX_PAUSE_NANOS)) {
					long remaining = deadline - System.nanoTime();
					if (remaining <= 0) {
						throw new TimeoutException();
					}
					LockSupport.parkNanos(Math.min(pause, remaining));
					interrupted |= Thread.interrupted();
				}
				return step.run(real);
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

	/**
	 * A step on the lock files of the directory, run under its guard.
	 */
	@FunctionalInterface
	interface Step<T> {

		T run(Path directory) throws IOException;

	}

}
