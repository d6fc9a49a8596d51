package io.github.lockable.store;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import org.jspecify.annotations.Nullable;

/**
 * A granted lock: releases once, on {@link #release()}; later calls return
 * {@link ReleaseResult#ALREADY_RELEASED} without asking the store. Its operations return
 * the store's stages; blocking callers go through the lock manager, which waits for them.
 * <p>
 * The handle also knows when the lock's TTL runs out on this JVM's monotonic clock,
 * counted from before the acquire was sent, and after a successful extend from before that
 * extend was sent: the store may still hold the lock a little longer, never shorter.
 */
public final class LockHandle {

	private static final CompletionStage<ReleaseResult> ALREADY_RELEASED = CompletableFuture
		.completedFuture(ReleaseResult.ALREADY_RELEASED);

	private static final CompletionStage<Boolean> NOT_EXTENDED = CompletableFuture.completedFuture(false);

	private final LockStore store;

	private final LockLease lease;

	private final long requestedNanos;

	/** When the TTL runs out, on {@link System#nanoTime()}; moved by successful extends. */
	private volatile long expiresNanos;

	/** When the extend that set {@link #expiresNanos} was sent; guarded by {@code this}. */
	private long expirySetNanos;

	private static final AtomicIntegerFieldUpdater<LockHandle> RELEASED = AtomicIntegerFieldUpdater
		.newUpdater(LockHandle.class, "released");

	/** 1 once released; a field updater rather than an AtomicBoolean: one handle per locked call. */
	private volatile int released;

	private static final AtomicReferenceFieldUpdater<LockHandle, CompletableFuture> FENCING_TOKEN = AtomicReferenceFieldUpdater
		.newUpdater(LockHandle.class, CompletableFuture.class, "fencingToken");

	/** The first {@link #fencingToken()} call's stage; a field updater: one handle per locked call. */
	private volatile @Nullable CompletableFuture<Long> fencingToken;

	/**
	 * Creates a handle for a lease the store has just granted, whose TTL counts from now:
	 * a store that can should read the time before it sends the acquire and use
	 * {@link #LockHandle(LockStore, LockLease, long)}.
	 * @param store the store that granted the lease
	 * @param lease the lease
	 */
	public LockHandle(LockStore store, LockLease lease) {
		this(store, lease, System.nanoTime());
	}

	/**
	 * Creates a handle for a lease the store has just granted.
	 * @param store the store that granted the lease
	 * @param lease the lease
	 * @param requestedNanos {@link System#nanoTime()} read before the acquire was sent,
	 * from which the lease's TTL counts on this JVM
	 */
	public LockHandle(LockStore store, LockLease lease, long requestedNanos) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.lease = Objects.requireNonNull(lease, "lease must not be null");
		this.requestedNanos = requestedNanos;
		this.expirySetNanos = requestedNanos;
		this.expiresNanos = requestedNanos + lease.ttl().toNanos();
	}

	/**
	 * The lease this handle releases.
	 * @return the lease
	 */
	public LockLease lease() {
		return this.lease;
	}

	/**
	 * Time since the acquire was sent, on the monotonic clock.
	 * @return the time the lock has been held
	 */
	public Duration elapsed() {
		return Duration.ofNanos(System.nanoTime() - this.requestedNanos);
	}

	/**
	 * Whether the lock's TTL ran out on this JVM's monotonic clock, counted from before
	 * the acquire, or the last successful extend, was sent. An expired lock may already be
	 * another caller's.
	 * @return whether the TTL has passed
	 */
	public boolean isExpired() {
		return System.nanoTime() - this.expiresNanos >= 0;
	}

	/**
	 * Releases the lock, the first time only.
	 * @return a stage with what the release found, or failed with a
	 * {@link LockStoreException}
	 */
	public CompletionStage<ReleaseResult> release() {
		if (!RELEASED.compareAndSet(this, 0, 1)) {
			return ALREADY_RELEASED;
		}
		return this.store.release(this.lease);
	}

	/**
	 * Sets the lock's remaining TTL, if it is still ours and not yet released.
	 * @param ttl the new remaining TTL
	 * @return a stage with whether the lock was extended, or failed with a
	 * {@link LockStoreException}
	 */
	public CompletionStage<Boolean> extend(Duration ttl) {
		if (this.released != 0) {
			return NOT_EXTENDED;
		}
		long sent = System.nanoTime();
		return this.store.extend(this.lease, ttl).thenApply((extended) -> {
			if (extended) {
				extended(sent, ttl);
			}
			return extended;
		});
	}

	/**
	 * The lock's fencing token, asked of the store the first time only: every later call,
	 * also one made while the first is under way, shares the first call's stage. A stage that
	 * failed is forgotten, so that the next call asks again.
	 * @return a stage with the fencing token, with 0 when the lock was no longer this
	 * handle's when the store was asked, or failed with a {@link LockStoreException}
	 */
	public CompletionStage<Long> fencingToken() {
		CompletableFuture<Long> current = this.fencingToken;
		if (current != null) {
			return current;
		}
		CompletableFuture<Long> mine = new CompletableFuture<>();
		if (!FENCING_TOKEN.compareAndSet(this, null, mine)) {
			return fencingToken();
		}
		this.store.fencingToken(this.lease).whenComplete((token, ex) -> {
			if (ex != null) {
				FENCING_TOKEN.compareAndSet(this, mine, null);
				mine.completeExceptionally(ex);
			}
			else {
				mine.complete(token);
			}
		});
		return mine;
	}

	/** The store set the TTL again; of extends that overlap, the one sent last counts. */
	private synchronized void extended(long sentNanos, Duration ttl) {
		if (sentNanos - this.expirySetNanos >= 0) {
			this.expirySetNanos = sentNanos;
			this.expiresNanos = sentNanos + ttl.toNanos();
		}
	}

	/**
	 * Whether {@link #release()} was called.
	 * @return whether this handle was released
	 */
	public boolean isReleased() {
		return this.released != 0;
	}

	@Override
	public String toString() {
		return "LockHandle[" + this.lease + ", store=" + this.store.name() + "]";
	}

}
