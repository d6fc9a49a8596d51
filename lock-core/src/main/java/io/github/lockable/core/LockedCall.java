package io.github.lockable.core;

import java.util.concurrent.CompletableFuture;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.HeldLock;
import io.github.lockable.LockContext;

/**
 * One {@code @Lockable} call that holds its lock: the {@link DefaultHeldLock} the flow
 * granted (with its renewal and the observation of the work), and what the release
 * hand-off needs to find the call when even a queue offer failed on the caller's thread.
 */
final class LockedCall {

	private final LockFlow flow;

	private final LockableMethod method;

	private final String key;

	private final DefaultHeldLock lock;

	/** The next call in {@link ReleaseHandoff#orphans}. */
	@Nullable LockedCall nextOrphan;

	/** What the method threw, for a call in {@link ReleaseHandoff#orphans}. */
	@Nullable Throwable orphanError;

	/** What came out of the release, for a call in {@link ReleaseHandoff#orphans}. */
	@Nullable VirtualMachineError orphanReleaseError;

	/** Set by the hand-off thread only: a call linked twice is released once. */
	private boolean orphanReleased;

	LockedCall(LockFlow flow, LockableMethod method, String key, Decision.RunLocked granted) {
		this.flow = flow;
		this.method = method;
		this.key = key;
		this.lock = flow.hold(method, key, granted);
	}

	HeldLock lock() {
		return this.lock;
	}

	/** The observation of the work, {@link Observation#NOOP} when nothing observes. */
	Observation execution() {
		return this.lock.execution();
	}

	/**
	 * Makes the lock and the observation of the work current on this thread while the
	 * method is called.
	 * @return the scope to close when the method returned
	 */
	LockContext.Scope open() {
		LockContext.Scope bound = LockContext.bind(this.lock);
		if (this.lock.execution().isNoop()) {
			return bound;
		}
		Observation.Scope observed = LockObservations.openScope(this.lock.execution());
		return () -> {
			observed.close();
			bound.close();
		};
	}

	/** See {@link DefaultHeldLock#workEnded}. */
	void workEnded(@Nullable Throwable error) {
		this.lock.workEnded(error);
	}

	/** See {@link DefaultHeldLock#finish}. */
	void finish(@Nullable Throwable error, boolean cancelled) {
		this.lock.finish(error, cancelled);
	}

	/** See {@link DefaultHeldLock#finishAsync}. */
	CompletableFuture<Void> finishAsync(@Nullable Throwable error, boolean cancelled) {
		return this.lock.finishAsync(error, cancelled);
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
		return new ReleaseHandoff.HandedOffRelease(this.flow, this.method, this.key, this.lock.handles().get(0), this,
				this.orphanError, this.orphanReleaseError);
	}

}
