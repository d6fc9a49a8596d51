package io.github.lockable.docs;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.ForwardingLockStore;

/** The memory store, which stops answering while {@link #failing} is set: an outage on demand. */
class FlakyStore extends ForwardingLockStore {

	volatile boolean failing;

	FlakyStore() {
		super(new MemoryLockStore());
	}

	private <T> CompletionStage<T> unlessFailing(Supplier<CompletionStage<T>> call) {
		return this.failing ? CompletableFuture.failedFuture(new LockStoreException(
				"the store did not answer within 500ms (lockable.acquire-timeout)", "TIMEOUT", null)) : call.get();
	}

	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		// The handle must release through this store, not through the memory store behind it.
		return unlessFailing(() -> acquireOwned(request));
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		return unlessFailing(() -> super.release(lease));
	}

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		return unlessFailing(() -> super.extend(lease, ttl));
	}

	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		return delegate().awaitRelease(key, maxWait);
	}

}
