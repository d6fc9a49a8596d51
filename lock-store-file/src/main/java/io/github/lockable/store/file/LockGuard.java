package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import io.github.lockable.store.LockTokens;

/**
 * The short critical section of a lock directory among all threads and processes of the
 * host, so that reading a lock file and acting on it is one step, and the directory's
 * fencing counter, which only such a step increments.
 * <p>
 * The guard is an OS lock on the whole of {@value #FILE_NAME}, which the kernel drops when
 * a process dies, plus a fair lock inside the JVM, as OS locks belong to the process. One
 * guard per directory: every acquire draws its token from the directory's one counter
 * anyway. The OS lock is polled with a pause growing to 1ms up to the store's timeout (its
 * holder keeps it for microseconds unless stopped or stuck). An interrupt neither cuts a
 * step short nor is lost: it would close the step's file channels.
 * <p>
 * The counter is one file, {@value #COUNTER_FILE_NAME}, holding the last fencing token
 * issued, in decimal, shared by every key, so a token is greater than every token issued
 * before in the directory. A new value is forced to disk and renamed over the counter
 * before the lock that carries it is published: a crash may skip a value but never issues
 * one twice. A missing file starts the count again at the clock in microseconds
 * ({@link LockTokens#nextFencingToken(long, long)}), above every token issued before it; a
 * file that is not a number fails the acquire rather than start again.
 */
final class LockGuard {

	/** Name of the guard file in the lock directory; never a lock or temporary file name. */
	static final String FILE_NAME = "lockable.guard";

	/** Name of the counter file; never a lock, temporary or guard file name. */
	static final String COUNTER_FILE_NAME = "fence.counter";

	/** Far more digits than any long has. */
	private static final int MAX_COUNTER_SIZE = 64;

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
	 * Increments the fencing counter; called in a step.
	 * @param directory the lock directory
	 * @return the new value, at least 1 and at least the clock in microseconds
	 * @throws IOException if the counter cannot be read or written, or is not a number
	 */
	static long nextFencingToken(Path directory) throws IOException {
		Path counter = directory.resolve(COUNTER_FILE_NAME);
		long next = LockTokens.nextFencingToken(readCounter(counter), Math.multiplyExact(System.currentTimeMillis(), 1000));
		LockDirectory.publish(counter, (next + "\n").getBytes(StandardCharsets.US_ASCII), false, true);
		return next;
	}

	private static long readCounter(Path counter) throws IOException {
		try {
			if (Files.size(counter) <= MAX_COUNTER_SIZE) {
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

	/** A step on the lock files of the directory, run under its guard. */
	@FunctionalInterface
	interface Step<T> {

		T run(Path directory) throws IOException;

	}

}
