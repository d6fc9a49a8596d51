package io.github.lockable.test;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.ReleaseResult;

/**
 * A store that hands every call to another, for the test stores that change or watch one
 * call of a real store and override only that. It forwards the calls that every store
 * implements; {@link LockStore#awaitRelease} and {@link LockStore#earlyLossCause} keep the
 * interface's defaults unless a subclass forwards them too. A subclass that watches
 * releases or extensions acquires through {@link #acquireOwned}, so that the handles it
 * grants come back to it.
 */
public class ForwardingLockStore implements LockStore {

	private final LockStore delegate;

	/**
	 * A store that forwards to the given one.
	 * @param delegate the store that answers
	 */
	public ForwardingLockStore(LockStore delegate) {
		this.delegate = delegate;
	}

	/**
	 * The store that answers.
	 * @return the store this one forwards to
	 */
	protected LockStore delegate() {
		return this.delegate;
	}

	/**
	 * The delegate's acquire, with a granted lock's handle made this store's: releasing or
	 * extending it through the handle then calls this store, not the delegate. The lease's
	 * TTL counts from before the delegate's acquire was sent, as a store's own handle does.
	 * @param request the lock to acquire
	 * @return the delegate's result, a granted lock with a handle of this store's
	 */
	protected CompletionStage<AcquireResult> acquireOwned(LockRequest request) {
		long requested = System.nanoTime();
		return this.delegate.acquire(request)
			.thenApply((result) -> (result instanceof AcquireResult.Acquired acquired)
					? new AcquireResult.Acquired(new LockHandle(this, acquired.handle().lease(), requested)) : result);
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		return this.delegate.acquire(request);
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		return this.delegate.release(lease);
	}

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		return this.delegate.extend(lease, ttl);
	}

	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		return this.delegate.fencingToken(lease);
	}

	@Override
	public CompletionStage<LockListing> locks(String prefix, int limit) {
		return this.delegate.locks(prefix, limit);
	}

	@Override
	public CompletionStage<Boolean> forceRelease(String key) {
		return this.delegate.forceRelease(key);
	}

}
