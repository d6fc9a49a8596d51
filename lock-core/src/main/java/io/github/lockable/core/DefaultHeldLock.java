package io.github.lockable.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.micrometer.observation.Observation;

import org.jspecify.annotations.Nullable;

import io.github.lockable.HeldLock;
import io.github.lockable.LockLostException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockStoreException;

/**
 * A {@link HeldLock} over the store's handles, one per key, in the same order as the keys:
 * the one held-lock object of a locked call, whether a {@code @Lockable} method or a
 * {@link io.github.lockable.LockTemplate} caller holds it. It carries the renewal and the
 * observation of the work under the lock, and releases through the {@link LockFlow} that
 * granted it; the events of its lock name hear the end of its work and its release.
 */
class DefaultHeldLock implements HeldLock {

	private final LockFlow flow;

	private final LockOperation operation;

	/** The handle of the first key; the only one of a lock of one key. */
	private final LockHandle handle;

	/**
	 * The keys and handles of a lock of several keys; {@code null} for a lock of one key,
	 * whose part is derived when asked: no list per call. One field for both, and the
	 * events looked up from the operation rather than kept: the lock of one key is one
	 * object of 56 bytes, the call of {@link LockedCall} included.
	 */
	private final @Nullable Several several;

	private final Observation execution;

	private static final AtomicIntegerFieldUpdater<DefaultHeldLock> CLOSED = AtomicIntegerFieldUpdater
		.newUpdater(DefaultHeldLock.class, "closed");

	/** 1 once closed; a field updater rather than an AtomicBoolean: one of these per locked call. */
	private volatile int closed;

	private volatile boolean lost;

	private volatile LockRenewals.@Nullable Renewal renewal;

	/** Whether the execution observation stopped; a release after a transaction comes later. */
	private boolean workEnded;

	/**
	 * @param flow releases the handles
	 * @param operation what runs under the lock
	 * @param keys the resource parts, as the caller gave them
	 * @param handles the handle of each key, in the order of {@code keys}
	 * @param execution the observation of the work under the lock, {@link Observation#NOOP} for none
	 */
	DefaultHeldLock(LockFlow flow, LockOperation operation, List<String> keys, List<LockHandle> handles,
			Observation execution) {
		this.flow = flow;
		this.operation = operation;
		Several all = new Several(List.copyOf(keys), List.copyOf(handles));
		if (all.keys().size() != all.handles().size() || all.keys().isEmpty()) {
			throw new IllegalArgumentException("One handle per key is required");
		}
		this.handle = all.handles().get(0);
		this.several = all;
		this.execution = execution;
	}

	/**
	 * The lock of one key. Its resource part is derived from the full key only when asked:
	 * most calls never ask, and this runs on every locked call.
	 * @param flow releases the handle
	 * @param operation what runs under the lock, which knows the resource part of its keys
	 * @param handle the handle
	 * @param execution the observation of the work under the lock, {@link Observation#NOOP} for none
	 */
	DefaultHeldLock(LockFlow flow, LockOperation operation, LockHandle handle, Observation execution) {
		this.flow = flow;
		this.operation = operation;
		this.handle = handle;
		this.several = null;
		this.execution = execution;
	}

	@Override
	public List<String> keys() {
		Several all = this.several;
		return (all != null) ? all.keys() : List.of(this.operation.resourcePart(this.handle.lease().key()));
	}

	@Override
	public long fencingToken() {
		if (size() != 1) {
			throw new IllegalStateException("This lock holds " + size()
					+ " keys; ask for the fencing token of one of them with fencingToken(key)");
		}
		return fencingToken(this.handle);
	}

	@Override
	public long fencingToken(String key) {
		int index = keys().indexOf(key);
		if (index < 0) {
			throw new IllegalArgumentException("This lock does not hold key '" + key + "'; it holds " + keys());
		}
		return fencingToken(handle(index));
	}

	/** Asked of the store the first time, owner-checked; the handle keeps the answer. */
	private static long fencingToken(LockHandle handle) {
		long token;
		try {
			token = StoreStages.await(handle.fencingToken());
		}
		catch (LockStoreException ex) {
			throw new LockStoreUnavailableException("Lock store unavailable; no fencing token was issued", ex);
		}
		if (token < 1) {
			throw new LockLostException("The lock " + handle.lease().key() + " is no longer held, so it gets no fencing "
					+ "token: a token is issued only to the lock's holder; take the lock again, or ask for the token "
					+ "while the lock is held");
		}
		return token;
	}

	@Override
	public boolean isHeld() {
		if (this.closed != 0 || this.lost) {
			return false;
		}
		for (int i = 0; i < size(); i++) {
			if (handle(i).isExpired()) {
				return false;
			}
		}
		return true;
	}

	@Override
	public boolean extend(Duration ttl) {
		// Past its TTL on this JVM's clock the store may still hold it: the extend is owner-checked.
		if (this.closed != 0 || this.lost) {
			return false;
		}
		for (int i = 0; i < size(); i++) {
			boolean extended;
			try {
				extended = StoreStages.await(handle(i).extend(ttl));
			}
			catch (LockStoreException ex) {
				throw new LockStoreUnavailableException("Lock store unavailable; the lock was not extended", ex);
			}
			if (!extended) {
				markLost();
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether an extend or a renewal found the lock lost (expired, or taken by another
	 * holder); a lock its holder closed is not lost.
	 * @return whether the lock was lost
	 */
	public boolean isLost() {
		return this.lost;
	}

	/**
	 * Records that the lock was found lost: {@link #isHeld()} is {@code false} from now on.
	 */
	public void markLost() {
		this.lost = true;
	}

	/**
	 * Renews this lock until it is closed.
	 * @param renewal the renewal to stop on close
	 */
	void renewWith(LockRenewals.Renewal renewal) {
		this.renewal = renewal;
		if (this.closed != 0) {
			renewal.stop();
		}
	}

	/**
	 * The handles, in the order of the keys.
	 * @return the handles
	 */
	public List<LockHandle> handles() {
		Several all = this.several;
		return (all != null) ? all.handles() : List.of(this.handle);
	}

	/** The handle of the first key, the only one of a lock of one key. */
	LockHandle handle() {
		return this.handle;
	}

	private int size() {
		Several all = this.several;
		return (all != null) ? all.handles().size() : 1;
	}

	private LockHandle handle(int index) {
		Several all = this.several;
		return (all != null) ? all.handles().get(index) : this.handle;
	}

	/** What runs under the lock. */
	LockOperation operation() {
		return this.operation;
	}

	/** The flow that granted the lock and releases it. */
	LockFlow flow() {
		return this.flow;
	}

	/**
	 * The observation of the work under the lock.
	 * @return the observation, {@link Observation#NOOP} when nothing observes
	 */
	public Observation execution() {
		return this.execution;
	}

	/**
	 * The work under the lock ended: stops its observation, once. Never throws.
	 * @param error what the work threw or failed with, or {@code null}
	 */
	public void workEnded(@Nullable Throwable error) {
		if (!this.workEnded) {
			this.workEnded = true;
			// The events of the lock's name, as its terms carry them: one field less per locked call.
			this.operation.terms(this.flow.lockManager()).events().workEnded(this.execution, error);
		}
	}

	/**
	 * Ends the work if that was not done, stops the renewal, releases every key in reverse
	 * order and logs how the call ended. Never throws. Unlike {@link #close()} it runs
	 * again when called again: a release whose first run was cut short is retried.
	 * @param error what the work threw, or {@code null}
	 * @param cancelled whether the caller cancelled
	 */
	public void finish(@Nullable Throwable error, boolean cancelled) {
		this.closed = 1;
		workEnded(error);
		stopRenewal();
		for (int i = size() - 1; i >= 0; i--) {
			LockHandle handle = handle(i);
			this.flow.release(this.operation, handle.lease().key(), handle, error, cancelled);
		}
	}

	/**
	 * As {@link #finish}, releasing without blocking; for a lock of one key.
	 * @param error what the work failed with, or {@code null}
	 * @param cancelled whether the caller cancelled
	 * @return a stage that completes, never exceptionally, once the release is done
	 */
	public CompletableFuture<Void> finishAsync(@Nullable Throwable error, boolean cancelled) {
		this.closed = 1;
		workEnded(error);
		stopRenewal();
		LockHandle handle = this.handle;
		return this.flow.releaseAsync(this.operation, handle.lease().key(), handle, error, cancelled);
	}

	@Override
	public void close() {
		if (CLOSED.compareAndSet(this, 0, 1)) {
			finish(null, false);
		}
	}

	private void stopRenewal() {
		LockRenewals.Renewal current = this.renewal;
		if (current != null) {
			current.stop();
		}
	}

	/** The keys and handles of a lock of several keys, in the same order. */
	private record Several(List<String> keys, List<LockHandle> handles) {
	}

	@Override
	public String toString() {
		return "HeldLock" + keys() + (isHeld() ? "" : (this.lost ? " (lost)" : (this.closed != 0) ? " (closed)" : " (expired)"));
	}

}
