package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockHandle;

/**
 * Extends held locks while their work runs, on one shared scheduler thread: no thread or
 * timer per lock. Each renewal sets the lock's TTL again, owner-checked, every third of
 * the TTL; the store's asynchronous extend keeps a slow store from holding up the other
 * locks' renewals.
 * <p>
 * A renewal stops for good when it is {@link Renewal#stop() stopped} (before the release),
 * when it finds the lock lost, and when this scheduler is closed at shutdown. An extend
 * still on its way when the lock is released cannot bring the lock back: the store
 * extends only a key that still holds the owner's token, and a released key holds none.
 */
final class LockRenewals implements AutoCloseable {

	private final ScheduledThreadPoolExecutor scheduler;

	/**
	 * Creates the scheduler; its one daemon thread starts with the first renewal.
	 */
	public LockRenewals() {
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "lockable-renewal");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
		this.scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
	}

	/**
	 * Starts renewing a lock until the returned renewal is stopped or the lock is lost,
	 * reporting every renewal to the lock's events.
	 * @param handle the granted lock
	 * @param terms the terms it was acquired on: each renewal sets their TTL again
	 * @param lost called once, on a renewal thread, when a renewal finds the lock lost
	 * @return the renewal, to stop before the release
	 */
	public Renewal start(LockHandle handle, LockTerms terms, Runnable lost) {
		Renewal renewal = new Renewal(handle, terms.ttl(), terms.events(), lost);
		renewal.scheduleNext();
		return renewal;
	}

	/**
	 * Stops every renewal: at shutdown the locks end with their release or their TTL.
	 */
	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

	/**
	 * The renewal of one lock.
	 */
	public final class Renewal {

		private final LockHandle handle;

		private final Duration ttl;

		private final long periodNanos;

		private final LockEvents events;

		private final Runnable lost;

		private final AtomicBoolean stopped = new AtomicBoolean();

		private volatile @Nullable ScheduledFuture<?> next;

		Renewal(LockHandle handle, Duration ttl, LockEvents events, Runnable lost) {
			this.handle = handle;
			this.ttl = ttl;
			this.events = events;
			this.periodNanos = Math.max(ttl.toNanos() / 3, TimeUnit.MILLISECONDS.toNanos(1));
			this.lost = lost;
		}

		/**
		 * Stops the renewal for good; an extend already sent finishes without effect once
		 * the lock is released.
		 */
		public void stop() {
			if (this.stopped.compareAndSet(false, true)) {
				ScheduledFuture<?> scheduled = this.next;
				if (scheduled != null) {
					scheduled.cancel(false);
				}
			}
		}

		/**
		 * Whether the renewal stopped, by {@link #stop()} or because the lock was lost.
		 * @return whether it stopped
		 */
		public boolean isStopped() {
			return this.stopped.get();
		}

		private void scheduleNext() {
			if (this.stopped.get()) {
				return;
			}
			try {
				this.next = LockRenewals.this.scheduler.schedule(this::renew, this.periodNanos, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// Shut down: the lock ends with its release or its TTL.
				this.stopped.set(true);
				return;
			}
			if (this.stopped.get()) {
				this.next.cancel(false);
			}
		}

		private void renew() {
			if (this.stopped.get()) {
				return;
			}
			this.handle.extend(this.ttl).whenComplete((extended, error) -> {
				if (this.stopped.get()) {
					return;
				}
				RenewalResult result = (error != null) ? RenewalResult.FAILED
						: extended ? RenewalResult.EXTENDED : RenewalResult.LOST;
				if (result == RenewalResult.LOST && !this.stopped.compareAndSet(false, true)) {
					return;
				}
				this.events.renewed(this.handle, result, error);
				if (result == RenewalResult.LOST) {
					this.lost.run();
				}
				else {
					// A store that did not answer may still hold the lock for us: try again.
					scheduleNext();
				}
			});
		}

	}

	/**
	 * What one renewal found.
	 */
	public enum RenewalResult {

		/** The lock was still ours and was extended. */
		EXTENDED,

		/** The lock was gone or owned by another: it expired before the renewal. */
		LOST,

		/** The store did not answer; the renewal is retried. */
		FAILED

	}

}
