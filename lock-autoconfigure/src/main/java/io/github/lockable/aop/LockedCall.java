package io.github.lockable.aop;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.github.lockable.HeldLock;
import io.github.lockable.core.DefaultHeldLock;
import io.github.lockable.core.LockRenewals.Renewal;

/**
 * One call that holds its lock: the lock the method sees through
 * {@link io.github.lockable.LockContext}, its renewal, and its end. The renewal stops
 * before the release, so that no renewal follows it.
 */
final class LockedCall {

	private final LockingSupport support;

	private final LockableMethod method;

	private final String key;

	private final DefaultHeldLock lock;

	private final @Nullable Renewal renewal;

	LockedCall(LockingSupport support, LockableMethod method, String key, DefaultHeldLock lock,
			@Nullable Renewal renewal) {
		this.support = support;
		this.method = method;
		this.key = key;
		this.lock = lock;
		this.renewal = renewal;
	}

	HeldLock lock() {
		return this.lock;
	}

	/**
	 * Stops the renewal, releases and logs how the call ended. Never throws.
	 */
	void finish(@Nullable Throwable error, boolean cancelled) {
		stopRenewal();
		this.support.release(this.method, this.key, this.lock.handles().get(0), error, cancelled);
	}

	/**
	 * Stops the renewal, then releases without blocking and logs how the call ended.
	 * @return a stage that completes, never exceptionally, once the release is done
	 */
	CompletableFuture<Void> finishAsync(@Nullable Throwable error, boolean cancelled) {
		stopRenewal();
		return this.support.releaseAsync(this.method, this.key, this.lock.handles().get(0), error, cancelled);
	}

	private void stopRenewal() {
		if (this.renewal != null) {
			this.renewal.stop();
		}
	}

}
