package io.github.lockable.docs;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.memory.MemoryLockStore;

/** The memory store, which stops answering while {@link #failing} is set: an outage on demand. */
class FlakyStore implements LockStore {

	private final MemoryLockStore delegate = new MemoryLockStore();

	volatile boolean failing;

	private <T> @Nullable CompletionStage<T> outage() {
		return this.failing ? CompletableFuture.failedFuture(new LockStoreException(
				"the store did not answer within 500ms (lockable.acquire-timeout)", "TIMEOUT", null)) : null;
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		CompletionStage<AcquireResult> outage = outage();
		if (outage != null) {
			return outage;
		}
		long requested = System.nanoTime();
		// The handle must release through this store, not through the memory store behind it.
		return this.delegate.acquire(request)
			.thenApply((result) -> (result instanceof AcquireResult.Acquired acquired)
					? new AcquireResult.Acquired(new LockHandle(this, acquired.handle().lease(), requested)) : result);
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		CompletionStage<ReleaseResult> outage = outage();
		return (outage != null) ? outage : this.delegate.release(lease);
	}

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		CompletionStage<Boolean> outage = outage();
		return (outage != null) ? outage : this.delegate.extend(lease, ttl);
	}

	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		return this.delegate.fencingToken(lease);
	}

	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		return this.delegate.awaitRelease(key, maxWait);
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
