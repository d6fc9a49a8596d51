package io.github.lockable.core;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.LockContext;
import io.github.lockable.store.LockHandle;

/**
 * One {@code @Lockable} call that holds its lock: the {@link DefaultHeldLock} the flow
 * granted (with its renewal and the observation of the work), and what the release
 * hand-off needs to find the call when even a queue offer failed on the caller's thread.
 * The held lock itself rather than a wrapper around it: one object per locked call.
 */
final class LockedCall extends DefaultHeldLock {

	/** The next call in {@link ReleaseHandoff#orphans}. */
	@Nullable LockedCall nextOrphan;

	/** What the method threw, for a call in {@link ReleaseHandoff#orphans}. */
	@Nullable Throwable orphanError;

	/** What came out of the release, for a call in {@link ReleaseHandoff#orphans}. */
	@Nullable VirtualMachineError orphanReleaseError;

	/** Set by the hand-off thread only: a call linked twice is released once. */
	private boolean orphanReleased;

	/** See {@link LockFlow#holdCall}, which also starts the renewal. */
	LockedCall(LockFlow flow, LockableMethod method, LockHandle handle, Observation execution) {
		super(flow, method, handle, execution);
	}

	/**
	 * Makes the lock and the observation of the work current on this thread while the
	 * method is called.
	 * @return the scope to close when the method returned
	 */
	LockContext.Scope open() {
		LockContext.Scope bound = LockContext.bind(this);
		if (execution().isNoop()) {
			return bound;
		}
		Observation.Scope observed = LockObservations.openScope(execution());
		return () -> {
			observed.close();
			bound.close();
		};
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
		LockHandle handle = handle();
		return new ReleaseHandoff.HandedOffRelease(flow(), (LockableMethod) operation(), handle.lease().key(), handle,
				this, this.orphanError, this.orphanReleaseError);
	}

}
