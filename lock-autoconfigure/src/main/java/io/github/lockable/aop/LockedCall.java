package io.github.lockable.aop;

import java.util.concurrent.CompletableFuture;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.HeldLock;
import io.github.lockable.LockContext;
import io.github.lockable.core.DefaultHeldLock;
import io.github.lockable.core.LockRenewals.Renewal;

/**
 * One call that holds its lock: the lock the method sees through
 * {@link io.github.lockable.LockContext}, its renewal, the observation of its work, and its
 * end. The observation stops when the work ends, the renewal before the release, so that
 * no renewal follows it.
 */
final class LockedCall {

	private final LockingSupport support;

	private final LockableMethod method;

	private final String key;

	private final DefaultHeldLock lock;

	private final @Nullable Renewal renewal;

	private final Observation execution;

	/** Whether the execution observation stopped; a release after a transaction comes later. */
	private boolean workEnded;

	/** The next call in {@link ReleaseHandoff#orphans}. */
	@Nullable LockedCall nextOrphan;

	/** What the method threw, for a call in {@link ReleaseHandoff#orphans}. */
	@Nullable Throwable orphanError;

	/** What came out of the release, for a call in {@link ReleaseHandoff#orphans}. */
	@Nullable VirtualMachineError orphanReleaseError;

	/** Set by the hand-off thread only: a call linked twice is released once. */
	private boolean orphanReleased;

	LockedCall(LockingSupport support, LockableMethod method, String key, DefaultHeldLock lock,
			@Nullable Renewal renewal, Observation execution) {
		this.support = support;
		this.method = method;
		this.key = key;
		this.lock = lock;
		this.renewal = renewal;
		this.execution = execution;
	}

	HeldLock lock() {
		return this.lock;
	}

	/** The observation of the work, {@link Observation#NOOP} when nothing observes. */
	Observation execution() {
		return this.execution;
	}

	/**
	 * Makes the lock and the observation of the work current on this thread while the
	 * method is called.
	 * @return the scope to close when the method returned
	 */
	LockContext.Scope open() {
		LockContext.Scope bound = LockContext.bind(this.lock);
		if (this.execution.isNoop()) {
			return bound;
		}
		Observation.Scope observed = LockObservations.openScope(this.execution);
		return () -> {
			observed.close();
			bound.close();
		};
	}

	/**
	 * The method's work ended: stops its observation, once. Never throws.
	 * @param error what the work threw or failed with, or {@code null}
	 */
	void workEnded(@Nullable Throwable error) {
		if (!this.workEnded) {
			this.workEnded = true;
			LockObservations.executed(this.execution, error);
		}
	}

	/**
	 * Ends the work if that was not done, stops the renewal, releases and logs how the call
	 * ended. Never throws.
	 */
	void finish(@Nullable Throwable error, boolean cancelled) {
		workEnded(error);
		stopRenewal();
		this.support.release(this.method, this.key, this.lock.handles().get(0), error, cancelled);
	}

	/**
	 * Ends the work, stops the renewal, then releases without blocking and logs how the call
	 * ended.
	 * @return a stage that completes, never exceptionally, once the release is done
	 */
	CompletableFuture<Void> finishAsync(@Nullable Throwable error, boolean cancelled) {
		workEnded(error);
		stopRenewal();
		return this.support.releaseAsync(this.method, this.key, this.lock.handles().get(0), error, cancelled);
	}

	/**
	 * The release of a call found in {@link ReleaseHandoff#orphans}, on the hand-off thread.
	 * @return the release, or {@code null} when it ran already
	 */
	@Nullable Runnable orphanRelease() {
		if (this.orphanReleased || this.orphanReleaseError == null) {
			return null;
		}
		this.orphanReleased = true;
		return this.support.handedOffRelease(this.method, this.key, this.lock.handles().get(0), this,
				this.orphanError, this.orphanReleaseError);
	}

	private void stopRenewal() {
		if (this.renewal != null) {
			this.renewal.stop();
		}
	}

}
