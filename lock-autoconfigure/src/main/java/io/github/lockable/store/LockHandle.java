package io.github.lockable.store;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A granted lock: releases once, on {@link #release()} or {@link #close()}; later calls
 * return {@link ReleaseResult#ALREADY_RELEASED} without asking the store.
 */
public final class LockHandle implements AutoCloseable {

	private static final CompletionStage<ReleaseResult> ALREADY_RELEASED = CompletableFuture
		.completedFuture(ReleaseResult.ALREADY_RELEASED);

	private static final CompletionStage<Boolean> NOT_EXTENDED = CompletableFuture.completedFuture(false);

	private final LockStore store;

	private final LockLease lease;

	private final long acquiredNanos;

	/** When the acquire or the last successful extension was sent, and the TTL it set. */
	private volatile TtlStart ttlStart;

	private final AtomicBoolean released = new AtomicBoolean();

	/**
	 * Creates a handle for a lease the store has just granted.
	 * @param store the store that granted the lease
	 * @param lease the lease
	 */
	public LockHandle(LockStore store, LockLease lease) {
		this(store, lease, System.nanoTime());
	}

	/**
	 * Creates a handle for a lease the store has just granted, whose TTL the store counts
	 * from {@code requestedNanos} on: taken before the acquire was sent, so that
	 * {@link #ttlRanOut()} never believes the TTL still runs when the server's has run out.
	 * @param store the store that granted the lease
	 * @param lease the lease
	 * @param requestedNanos {@link System#nanoTime()} before the acquire was sent
	 */
	public LockHandle(LockStore store, LockLease lease, long requestedNanos) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.lease = Objects.requireNonNull(lease, "lease must not be null");
		this.acquiredNanos = System.nanoTime();
		this.ttlStart = new TtlStart(requestedNanos, lease.ttl().toNanos());
	}

	/**
	 * The lease this handle releases.
	 * @return the lease
	 */
	public LockLease lease() {
		return this.lease;
	}

	/**
	 * Time since the lock was acquired, on the monotonic clock.
	 * @return the time the lock has been held
	 */
	public Duration elapsed() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	/**
	 * Whether the lock's TTL has run out on this JVM's monotonic clock, counted from before
	 * the acquire, or the last successful extension, was sent. A lock found gone while this
	 * is {@code false} did not expire: it was taken away (deleted, evicted, flushed, lost in
	 * a failover).
	 * @return whether the TTL has run out
	 */
	public boolean ttlRanOut() {
		TtlStart start = this.ttlStart;
		return System.nanoTime() - start.sentNanos() >= start.ttlNanos();
	}

	/**
	 * Releases the lock, the first time only.
	 * @return what the release found
	 * @throws LockStoreException when the store does not answer
	 */
	public ReleaseResult release() {
		if (!this.released.compareAndSet(false, true)) {
			return ReleaseResult.ALREADY_RELEASED;
		}
		return this.store.release(this.lease);
	}

	/**
	 * Releases the lock asynchronously, the first time only.
	 * @return a stage with what the release found, or failed with a
	 * {@link LockStoreException}
	 */
	public CompletionStage<ReleaseResult> releaseAsync() {
		if (!this.released.compareAndSet(false, true)) {
			return ALREADY_RELEASED;
		}
		return this.store.releaseAsync(this.lease);
	}

	/**
	 * Sets the lock's remaining TTL, if it is still ours and not yet released.
	 * @param ttl the new remaining TTL
	 * @return whether the lock was extended
	 * @throws LockStoreException when the store does not answer
	 */
	public boolean extend(Duration ttl) {
		if (this.released.get()) {
			return false;
		}
		long sent = System.nanoTime();
		boolean extended = this.store.extend(this.lease, ttl);
		if (extended) {
			this.ttlStart = new TtlStart(sent, ttl.toNanos());
		}
		return extended;
	}

	/**
	 * Sets the lock's remaining TTL asynchronously, if it is still ours and not yet
	 * released.
	 * @param ttl the new remaining TTL
	 * @return a stage with whether the lock was extended, or failed with a
	 * {@link LockStoreException}
	 */
	public CompletionStage<Boolean> extendAsync(Duration ttl) {
		if (this.released.get()) {
			return NOT_EXTENDED;
		}
		long sent = System.nanoTime();
		return this.store.extendAsync(this.lease, ttl).thenApply((extended) -> {
			if (extended) {
				this.ttlStart = new TtlStart(sent, ttl.toNanos());
			}
			return extended;
		});
	}

	/**
	 * Whether {@link #release()} or {@link #releaseAsync()} was called.
	 * @return whether this handle was released
	 */
	public boolean isReleased() {
		return this.released.get();
	}

	@Override
	public void close() {
		release();
	}

	@Override
	public String toString() {
		return "LockHandle[" + this.lease + ", store=" + this.store.name() + "]";
	}

	private record TtlStart(long sentNanos, long ttlNanos) {
	}

}
