package io.github.lockable.test.app;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.ForwardingLockStore;

import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A store that records every call before handing it to the real store, so tests can see
 * what reached the store, with which token, and in what order relative to transactions.
 */
public class RecordingLockStore extends ForwardingLockStore {

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final List<LockLease> released = new CopyOnWriteArrayList<>();

	private final List<LockLease> acquired = new CopyOnWriteArrayList<>();

	public RecordingLockStore(LockStore delegate) {
		super(delegate);
	}

	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		this.events.add("acquire " + request.key()
				+ (TransactionSynchronizationManager.isActualTransactionActive() ? " in transaction" : ""));
		return acquireOwned(request).thenApply((result) -> {
			if (result instanceof AcquireResult.Acquired acquired) {
				this.acquired.add(acquired.handle().lease());
			}
			return result;
		});
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		this.events.add("release " + lease.key()
				+ (TransactionSynchronizationManager.isActualTransactionActive() ? " in transaction" : ""));
		this.released.add(lease);
		return super.release(lease);
	}

	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		return delegate().awaitRelease(key, maxWait);
	}

	@Override
	public @Nullable String earlyLossCause() {
		return delegate().earlyLossCause();
	}

	public List<String> events() {
		return this.events;
	}

	public List<LockLease> acquired() {
		return this.acquired;
	}

	public List<LockLease> released() {
		return this.released;
	}

	public void clear() {
		this.events.clear();
		this.acquired.clear();
		this.released.clear();
	}

}
