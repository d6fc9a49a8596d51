package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serializes every change of one lock file among all threads and processes of the host,
 * so that reading a lock and acting on what it says (reclaim, release, extend) is one
 * atomic step: two processes that find the same stale lock take turns, and the second
 * finds the first one's fresh lock.
 * <p>
 * Across processes a lock name maps to one byte of a guard file in the lock directory,
 * {@value #FILE_NAME}, and that byte is locked with an OS byte-range lock
 * ({@link FileChannel#tryLock(long, long, boolean)}). The kernel drops such locks when a
 * process dies, so a process killed with SIGKILL never leaves the guard stuck. One file
 * with many byte ranges instead of a guard file per key keeps the directory from filling
 * up with guard files of keys used once; two keys whose names share a byte merely take
 * turns for a few microseconds.
 * <p>
 * OS locks belong to the process, so inside the JVM the same byte is also guarded by a
 * {@link ReentrantLock} stripe. The guard file of a directory is opened once per JVM and
 * never closed: on POSIX systems closing any descriptor of a file drops every lock the
 * process holds on it, including those of other threads. The file is never deleted by
 * the store; in case something else deletes it, every locked section first checks that
 * the path still names the locked file, and reopens it if not.
 * <p>
 * Waiting is bounded, and an interrupt neither cuts a step short nor is lost: a half done
 * release would leave a lock behind for its whole TTL.
 */
final class LockGuard {

	/** Name of the guard file in the lock directory; never a lock or temporary file name. */
	static final String FILE_NAME = "lockable.guard";

	private static final int SLOTS = 1 << 16;

	private static final int STRIPES = 64;

	private static final int COUNTER_SLOT = SLOTS;

	private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private static final Object ABSENT = new Object();

	private static final Logger logger = LoggerFactory.getLogger(LockGuard.class);

	/** One guard per real directory path, shared by every store of the JVM. */
	private static final ConcurrentHashMap<Path, LockGuard> guards = new ConcurrentHashMap<>();

	private final Path file;

	private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

	private final ReentrantLock counterLock = new ReentrantLock();

	private final Object openMonitor = new Object();

	private volatile SlotRelease slotRelease = SlotRelease.OS;

	private volatile @Nullable OpenGuard open;

	private LockGuard(Path directory) {
		this.file = directory.resolve(FILE_NAME);
		for (int i = 0; i < STRIPES; i++) {
			this.stripes[i] = new ReentrantLock();
		}
	}

	/**
	 * The guard of a lock directory.
	 * @param realDirectory the directory's {@link Path#toRealPath real path}, so that
	 * every way to name the directory leads to the same guard
	 * @return the guard
	 */
	static LockGuard of(Path realDirectory) {
		return guards.computeIfAbsent(realDirectory, LockGuard::new);
	}

	/**
	 * Runs an action while no other thread or process runs one for the same name.
	 * @param name the lock name
	 * @param timeoutNanos longest time to wait for the guard
	 * @param action what to do
	 * @return the action's result
	 * @throws IOException if the guard file cannot be opened or locked, or the action fails
	 * @throws GuardTimeoutException if the guard stayed taken for the whole timeout
	 */
	<T> T call(LockFileName name, long timeoutNanos, GuardedAction<T> action)
			throws IOException, GuardTimeoutException {
		int slot = name.slot(SLOTS);
		return call(slot, this.stripes[slot % STRIPES], timeoutNanos, action);
	}

	/**
	 * Runs an action on the store-wide fencing counter while no other thread or process
	 * runs one. Its own byte of the guard file, past those of lock names, so it may be
	 * taken inside {@link #call(LockFileName, long, GuardedAction)}; never the other way
	 * round, which could deadlock.
	 * @param timeoutNanos longest time to wait for the guard
	 * @param action what to do
	 * @return the action's result
	 * @throws IOException if the guard file cannot be opened or locked, or the action fails
	 * @throws GuardTimeoutException if the guard stayed taken for the whole timeout
	 */
	<T> T callOnCounter(long timeoutNanos, GuardedAction<T> action) throws IOException, GuardTimeoutException {
		return call(COUNTER_SLOT, this.counterLock, timeoutNanos, action);
	}

	private <T> T call(int slot, ReentrantLock stripe, long timeoutNanos, GuardedAction<T> action)
			throws IOException, GuardTimeoutException {
		long deadline = System.nanoTime() + timeoutNanos;
		Interrupts interrupts = new Interrupts();
		try {
			lockStripe(stripe, deadline, interrupts);
			try {
				for (int attempt = 1;; attempt++) {
					OpenGuard guard = openGuard();
					FileLock lock = lockSlot(guard.channel(), slot, deadline, interrupts);
					if (isCurrentOrRelease(guard, lock)) {
						return callAndRelease(action, lock);
					}
					if (attempt == 5) {
						throw new IOException("Guard file " + this.file + " keeps being replaced");
					}
					reopen(guard);
				}
			}
			finally {
				stripe.unlock();
			}
		}
		finally {
			interrupts.restore();
		}
	}

	private static void lockStripe(ReentrantLock stripe, long deadline, Interrupts interrupts)
			throws GuardTimeoutException {
		while (true) {
			try {
				if (stripe.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
					return;
				}
				throw new GuardTimeoutException();
			}
			catch (InterruptedException ex) {
				interrupts.seen();
			}
		}
	}

	/**
	 * Polls for the slot's OS lock with a growing pause; another process holds it for
	 * microseconds only, unless it is stopped or stuck, which the deadline covers.
	 */
	private static FileLock lockSlot(FileChannel channel, int slot, long deadline, Interrupts interrupts)
			throws IOException, GuardTimeoutException {
		long pause = 10_000;
		while (true) {
			FileLock lock;
			try {
				lock = channel.tryLock(slot, 1, false);
			}
			catch (OverlappingFileLockException ex) {
				// Another guard of this JVM on the same file (a directory reached by two real
				// paths, such as a bind mount) holds the byte: wait as for another process.
				lock = null;
			}
			if (lock != null) {
				return lock;
			}
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				throw new GuardTimeoutException();
			}
			LockSupport.parkNanos(Math.min(pause, remaining));
			interrupts.clear();
			pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
		}
	}

	private boolean isCurrentOrRelease(OpenGuard guard, FileLock lock) throws IOException {
		boolean current;
		try {
			current = isCurrent(guard);
		}
		catch (IOException | RuntimeException ex) {
			releaseAfter(ex, lock);
			throw ex;
		}
		if (!current) {
			this.slotRelease.release(lock);
		}
		return current;
	}

	/**
	 * Runs the action and releases the slot. Once the action succeeded its effect is real
	 * (a lock file written or deleted), so a failure to release the slot is logged, never
	 * thrown: the caller must learn the action's result, or it would take an acquired
	 * lock for a failure and leave the lock file holding its token.
	 */
	private <T> T callAndRelease(GuardedAction<T> action, FileLock lock) throws IOException {
		T result;
		try {
			result = action.call();
		}
		catch (IOException | RuntimeException ex) {
			releaseAfter(ex, lock);
			throw ex;
		}
		try {
			this.slotRelease.release(lock);
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Could not release the guard of a lock in {} after changing it; the change stands", this.file,
					ex);
		}
		return result;
	}

	private void releaseAfter(Exception failure, FileLock lock) {
		try {
			this.slotRelease.release(lock);
		}
		catch (IOException | RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

	private static void release(FileLock lock) throws IOException {
		try {
			lock.release();
		}
		catch (ClosedChannelException ex) {
			// a closed channel holds no locks
		}
	}

	/**
	 * Replaces how the OS lock of a slot is released, so that tests can make it fail.
	 * @param slotRelease releases a slot's OS lock
	 */
	void releaseSlotsWith(SlotRelease slotRelease) {
		this.slotRelease = Objects.requireNonNull(slotRelease, "slotRelease must not be null");
	}

	private OpenGuard openGuard() throws IOException {
		OpenGuard current = this.open;
		return (current != null) ? current : reopen(null);
	}

	/**
	 * Replaces a guard whose file is gone or replaced, once, however many threads find it
	 * so. The old channel is not closed: another thread may still be releasing its lock
	 * on it; it holds no lock anyone else waits for.
	 */
	private OpenGuard reopen(@Nullable OpenGuard stale) throws IOException {
		synchronized (this.openMonitor) {
			OpenGuard current = this.open;
			if (current == null || current == stale) {
				current = openFile();
				this.open = current;
			}
			return current;
		}
	}

	/**
	 * Opens the guard file, creating it if needed, and learns which file the channel has:
	 * the file key read before and after opening must agree, or something replaced the
	 * file in between and we try again.
	 */
	private OpenGuard openFile() throws IOException {
		for (int attempt = 1;; attempt++) {
			Object before = fileKey();
			if (before == ABSENT) {
				try {
					Files.createFile(this.file, FilePermissions.file(this.file));
				}
				catch (FileAlreadyExistsException ex) {
					// created by another process or store meanwhile
				}
			}
			else {
				FileChannel channel;
				try {
					channel = FileChannel.open(this.file, StandardOpenOption.READ, StandardOpenOption.WRITE,
							LinkOption.NOFOLLOW_LINKS);
				}
				catch (NoSuchFileException ex) {
					channel = null;
				}
				if (channel != null) {
					Object after = fileKey();
					if (before == null && after == null) {
						// no file keys on this file system: nothing to check
						return new OpenGuard(channel, null);
					}
					if (after != null && after != ABSENT && after.equals(before)) {
						return new OpenGuard(channel, after);
					}
					channel.close();
				}
			}
			if (attempt == 5) {
				throw new IOException("Guard file " + this.file + " keeps being replaced");
			}
		}
	}

	private boolean isCurrent(OpenGuard guard) throws IOException {
		if (guard.fileKey() == null) {
			return true;
		}
		return guard.fileKey().equals(fileKey());
	}

	/**
	 * The guard file's key, {@link #ABSENT} if there is no such file, or {@code null} if
	 * the file system has no file keys.
	 */
	private @Nullable Object fileKey() throws IOException {
		try {
			return Files.readAttributes(this.file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
		}
		catch (NoSuchFileException ex) {
			return ABSENT;
		}
	}

	/**
	 * Keeps the interrupt flag clear during a guarded step, so that neither a wait nor a
	 * channel operation of the step is cut short, and sets it again afterwards.
	 */
	private static final class Interrupts {

		private boolean interrupted = Thread.interrupted();

		void seen() {
			this.interrupted = true;
		}

		void clear() {
			if (Thread.interrupted()) {
				this.interrupted = true;
			}
		}

		void restore() {
			clear();
			if (this.interrupted) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * Something to do while guarded.
	 */
	@FunctionalInterface
	interface GuardedAction<T> {

		T call() throws IOException;

	}

	/**
	 * Releases the OS lock of a slot.
	 */
	@FunctionalInterface
	interface SlotRelease {

		/** The OS release itself. */
		SlotRelease OS = LockGuard::release;

		void release(FileLock lock) throws IOException;

	}

	private record OpenGuard(FileChannel channel, @Nullable Object fileKey) {

		OpenGuard {
			Objects.requireNonNull(channel, "channel must not be null");
		}

	}

	/**
	 * The guard of a lock stayed taken for the whole timeout: another process holding it is
	 * stopped or stuck.
	 */
	static final class GuardTimeoutException extends Exception {

		GuardTimeoutException() {
			super("Timed out waiting for the lock guard", null, false, false);
		}

	}

}
