package io.github.lockable.core;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockHandle;

/**
 * Runs the releases that could not run where the locked method ended: a
 * {@link VirtualMachineError} (a {@link StackOverflowError} of a recursion through the
 * method, an {@link OutOfMemoryError}) left no room on the caller's thread for the release.
 * <p>
 * One daemon thread for the whole JVM, started before the first lock is taken and parked
 * until needed: handing a release to it is one queue offer, which a nearly exhausted stack
 * can still make. Not the continuations executor: it may start a thread per task (virtual
 * threads, {@code SimpleAsyncTaskExecutor}) or refuse when its queue is full, and starting
 * a thread needs the stack that is gone.
 * <p>
 * Where even the offer fails, the caller links its {@link LockedCall} into
 * {@link #orphans} with two field stores, which need no stack, and the thread finds it
 * within a second.
 */
final class ReleaseHandoff {

	// The log category of the package this class came from, which operators' logging configuration names
	private static final Logger logger = LoggerFactory.getLogger("io.github.lockable.aop.ReleaseHandoff");

	private static final LinkedBlockingQueue<Runnable> releases = new LinkedBlockingQueue<>();

	private static final long ORPHAN_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

	/**
	 * Calls whose release not even {@link #submit} could take, linked through
	 * {@link LockedCall#nextOrphan}. Pushed without an atomic operation, which needs a
	 * call: two threads that overflow at the same instant may link one call twice, which
	 * releases it once.
	 */
	static volatile @Nullable LockedCall orphans;

	static {
		Thread worker = new Thread(ReleaseHandoff::run, "lockable-release-handoff");
		worker.setDaemon(true);
		// Not the creating thread's: a context class loader kept alive by this thread would leak.
		worker.setContextClassLoader(null);
		worker.start();
	}

	private ReleaseHandoff() {
	}

	/**
	 * Starts the thread, if that was not done yet; call it where the stack is not at risk.
	 */
	static void prepare() {
		HandedOffRelease.class.getName();
	}

	/**
	 * Releases, on the hand-off thread, a lock whose release could not run on the caller's:
	 * a {@link VirtualMachineError} came out of it. Allocates one object and queues it,
	 * which a nearly exhausted stack can still do.
	 * @param call the call, or {@code null} when it failed before it began
	 * @param error what the method threw, or {@code null}
	 * @param releaseError what came out of the release
	 */
	static void handOff(LockFlow flow, LockableMethod method, String key, LockHandle handle, @Nullable LockedCall call,
			@Nullable Throwable error, VirtualMachineError releaseError) {
		submit(new HandedOffRelease(flow, method, key, handle, call, error, releaseError));
	}

	/**
	 * Hands a release over.
	 * @param release releases the lock and says so; it must not throw
	 */
	static void submit(Runnable release) {
		releases.offer(release);
	}

	private static void run() {
		while (true) {
			Runnable release;
			try {
				release = releases.poll(ORPHAN_CHECK_NANOS, TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				// Nobody interrupts this thread on purpose; releases still queued must run.
				continue;
			}
			if (release != null) {
				runSafely(release);
			}
			LockedCall orphan = orphans;
			if (orphan != null) {
				orphans = null;
				for (; orphan != null; orphan = orphan.nextOrphan) {
					runSafely(orphan.orphanRelease());
				}
			}
		}
	}

	private static void runSafely(@Nullable Runnable release) {
		if (release == null) {
			return;
		}
		try {
			release.run();
		}
		catch (Throwable ex) {
			logger.error("A lock release handed over from another thread failed; the lock runs out with its TTL", ex);
		}
	}

	/**
	 * A release handed over by {@link #handOff}: a named class rather than a lambda, whose
	 * first use would link it on the exhausted stack.
	 */
	record HandedOffRelease(LockFlow flow, LockableMethod method, String key, LockHandle handle,
			@Nullable LockedCall call, @Nullable Throwable error, VirtualMachineError releaseError) implements Runnable {

		@Override
		public void run() {
			// Marked released before it failed, the store may not have been asked: ask it again;
			// a compare-and-delete of a lock already gone deletes nothing.
			boolean retry = this.handle.isReleased();
			if (this.call != null) {
				this.call.finish(this.error, false);
			}
			else {
				this.flow.release(this.method, this.key, this.handle, this.error, false);
			}
			if (retry) {
				try {
					this.flow.lockManager().store().release(this.handle.lease());
				}
				catch (RuntimeException ex) {
					// Reported by the release above, or runs out with its TTL.
				}
			}
			this.flow.releaseHandedOff(this.method, this.key, this.releaseError, this.error);
		}

	}

}
