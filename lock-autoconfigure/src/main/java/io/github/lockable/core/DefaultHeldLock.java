package io.github.lockable.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import org.jspecify.annotations.Nullable;

import io.github.lockable.HeldLock;
import io.github.lockable.LockLostException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockStoreException;

/**
 * A {@link HeldLock} over the store's handles, one per key, in the same order as the keys.
 */
public final class DefaultHeldLock implements HeldLock {

	private final LockManager manager;

	private final List<String> keys;

	private final List<LockHandle> handles;

	private final @Nullable LockMetrics metrics;

	private static final AtomicIntegerFieldUpdater<DefaultHeldLock> CLOSED = AtomicIntegerFieldUpdater
		.newUpdater(DefaultHeldLock.class, "closed");

	/** 1 once closed; a field updater rather than an AtomicBoolean: one of these per locked call. */
	private volatile int closed;

	private volatile boolean lost;

	private volatile LockRenewals.@Nullable Renewal renewal;

	/**
	 * Creates a lock over granted handles, whose release reports to the manager's metrics.
	 * @param manager releases the handles
	 * @param keys the resource parts, as the caller gave them
	 * @param handles the handle of each key, in the order of {@code keys}
	 */
	public DefaultHeldLock(LockManager manager, List<String> keys, List<LockHandle> handles) {
		this(manager, keys, handles, null);
	}

	/**
	 * Creates a lock over handles granted with a lock's own metrics, which its release
	 * reports to.
	 * @param manager releases the handles
	 * @param keys the resource parts, as the caller gave them
	 * @param handles the handle of each key, in the order of {@code keys}
	 * @param metrics what the handles were acquired with, from {@link LockManager#metrics(String)}
	 */
	public DefaultHeldLock(LockManager manager, List<String> keys, List<LockHandle> handles,
			@Nullable LockMetrics metrics) {
		this.manager = Objects.requireNonNull(manager, "manager must not be null");
		this.metrics = metrics;
		this.keys = List.copyOf(keys);
		this.handles = List.copyOf(handles);
		if (this.keys.size() != this.handles.size() || this.keys.isEmpty()) {
			throw new IllegalArgumentException("One handle per key is required");
		}
	}

	@Override
	public List<String> keys() {
		return this.keys;
	}

	@Override
	public long fencingToken() {
		if (this.keys.size() != 1) {
			throw new IllegalStateException("This lock holds " + this.keys.size()
					+ " keys; ask for the fencing token of one of them with fencingToken(key)");
		}
		return fencingToken(this.handles.get(0));
	}

	@Override
	public long fencingToken(String key) {
		int index = this.keys.indexOf(key);
		if (index < 0) {
			throw new IllegalArgumentException("This lock does not hold key '" + key + "'; it holds " + this.keys);
		}
		return fencingToken(this.handles.get(index));
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
		for (LockHandle handle : this.handles) {
			if (handle.isExpired()) {
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
		for (LockHandle handle : this.handles) {
			boolean extended;
			try {
				extended = StoreStages.await(handle.extend(ttl));
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
	public void renewWith(LockRenewals.Renewal renewal) {
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
		return this.handles;
	}

	@Override
	public void close() {
		if (CLOSED.compareAndSet(this, 0, 1)) {
			LockRenewals.Renewal current = this.renewal;
			if (current != null) {
				current.stop();
			}
			for (int i = this.handles.size() - 1; i >= 0; i--) {
				release(this.handles.get(i));
			}
		}
	}

	private void release(LockHandle handle) {
		if (this.metrics != null) {
			this.manager.release(handle, this.metrics);
		}
		else {
			this.manager.release(handle);
		}
	}

	@Override
	public String toString() {
		return "HeldLock" + this.keys + (isHeld() ? "" : (this.lost ? " (lost)" : (this.closed != 0) ? " (closed)" : " (expired)"));
	}

}
