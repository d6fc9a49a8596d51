package io.github.lockable.core;

import io.github.lockable.core.LockableCore.EventListener;
import java.time.Duration;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.observation.LockObservationContext.Outcome;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.ReleaseResult;

/**
 * The one source of the events of the locks of one name: each outcome of a lock (how its
 * acquire ended, its release, its renewals, the end of the call) is reported here once, and
 * from here reaches the meters (the user's {@link LockMetrics}, through
 * {@link GuardedLockMetrics}), the log ({@link LockLog}) and the call's observations
 * ({@link LockObservations}), so that the three always tell the same story, and to the
 * {@link EventListener} when there is one (the test kit's). The deciders
 * ({@link AcquireDecisions}, {@link LockManager}, {@link LockRenewals}, {@link LockFlow})
 * say what happened; nothing else calls the meters or the log.
 * <p>
 * One instance per lock name, made once and carried by its {@link LockTerms}; the per-call
 * parts (the operation, the key, the handle, the observations) are passed in, so that
 * nothing is allocated per call. Nothing here throws once a lock was granted.
 */
final class LockEvents {

	/** No meters; the log and the observations still hear every event. */
	static final LockEvents NONE = new LockEvents(GuardedLockMetrics.NONE, null);

	private final GuardedLockMetrics metrics;

	private final @Nullable EventListener listener;

	private LockEvents(GuardedLockMetrics metrics, @Nullable EventListener listener) {
		this.metrics = metrics;
		this.listener = listener;
	}

	/**
	 * The events of locks whose lock name nobody told apart.
	 * @param metrics the user's metrics; a hook that throws is reported and otherwise ignored
	 */
	static LockEvents of(LockMetrics metrics) {
		return of(metrics, null);
	}

	/**
	 * As {@link #of(LockMetrics)}, with a listener to every call's outcomes.
	 * @param listener hears each call's outcomes, or {@code null}
	 */
	static LockEvents of(LockMetrics metrics, @Nullable EventListener listener) {
		GuardedLockMetrics guarded = GuardedLockMetrics.guard(metrics);
		return (guarded == GuardedLockMetrics.NONE && listener == null) ? NONE : new LockEvents(guarded, listener);
	}

	/**
	 * The events of one lock name: the metrics' {@link LockMetrics#forLock} is asked here,
	 * once per name.
	 */
	LockEvents forLock(String lock) {
		GuardedLockMetrics bound = this.metrics.forLock(lock);
		if (bound == this.metrics) {
			return this;
		}
		return (bound == GuardedLockMetrics.NONE && this.listener == null) ? NONE
				: new LockEvents(bound, this.listener);
	}

	/**
	 * The lock was granted.
	 * @param waited how long the acquire took, for an acquire allowed to wait; else {@code null}
	 */
	void acquired(LockOperation operation, String store, AcquireResult.Acquired result, @Nullable Duration waited,
			Observation acquisition) {
		acquireEnded(result, waited);
		LockObservations.acquired(acquisition, Outcome.ACQUIRED, null);
		storeAnswered(operation, store);
		tell(operation, result.handle().lease().key(), EventListener.Outcome.ACQUIRED);
	}

	/**
	 * The lock was held (still, after the wait time).
	 * @param skipped whether the call is skipped (policy SKIP) rather than refused as a conflict
	 */
	void held(LockOperation operation, String key, String store, AcquireResult.Held held, boolean skipped,
			@Nullable Duration waited, Observation acquisition) {
		acquireEnded(held, waited);
		storeAnswered(operation, store);
		LockObservations.acquired(acquisition, skipped ? Outcome.SKIPPED : Outcome.HELD, null);
		if (skipped) {
			LockLog.skipped(operation, key, store, held);
		}
		else {
			LockLog.conflicted(operation, key, store, held);
		}
		tell(operation, key, skipped ? EventListener.Outcome.SKIPPED : EventListener.Outcome.REFUSED);
	}

	/**
	 * The store did not answer the acquire: the call runs unlocked or not at all. The log
	 * shows the first failure of an outage and then summaries, by the operation's throttle.
	 */
	void storeFailed(LockOperation operation, String key, String store, AcquireResult.Failed failed,
			boolean proceeding, @Nullable Duration waited, Observation acquisition) {
		acquireEnded(failed, waited);
		LockObservations.acquired(acquisition, Outcome.FAILED, failed.cause());
		LockLog.storeFailed(operation, key, store, failed.cause(), proceeding,
				operation.storeOutage().failed(failed.cause().getCode(), System.nanoTime()));
		tell(operation, key, EventListener.Outcome.STORE_FAILED);
	}

	/**
	 * The acquire threw instead of answering: only its observation hears it, as the
	 * exception reaches the caller.
	 * @return the exception, to throw
	 */
	static RuntimeException acquireThrew(Observation acquisition, RuntimeException ex) {
		LockObservations.acquired(acquisition, Outcome.FAILED, ex);
		return ex;
	}

	/** A key broke the key rules before any acquire; the message does not contain the value. */
	static void invalidKey(LockOperation operation, InvalidLockKeyException ex) {
		LockLog.invalidKey(operation, ex);
	}

	/** The work under the lock ended: its observation stops. */
	void workEnded(Observation execution, @Nullable Throwable error) {
		LockObservations.executed(execution, error);
	}

	/**
	 * A release ended; one that found the lock gone says so at WARN.
	 * @param held how long the lock was held
	 * @param storeLossCause what the store knows can take locks away early, asked only when
	 * the release found the lock gone; {@code null} otherwise or when it knows nothing
	 */
	void released(LockHandle handle, ReleaseResult result, Duration held, @Nullable String storeLossCause) {
		this.metrics.released(result, held);
		if (result == ReleaseResult.NOT_OWNER) {
			LockLog.releaseFoundLost(handle.lease(), LockLoss.atRelease(handle, storeLossCause));
		}
	}

	/** A holder ran longer than the warning share of its TTL. */
	void ttlNearlyExhausted(LockHandle handle, Duration held, double ttlWarningRatio) {
		this.metrics.ttlNearlyExhausted();
		LockLog.ttlNearlyExhausted(handle.lease(), held, ttlWarningRatio);
	}

	/** The store did not answer a release: the lock runs out with its TTL. */
	void releaseFailed(LockHandle handle, Duration held, Throwable cause) {
		this.metrics.releaseFailed(held);
		LockLog.releaseFailed(handle.lease(), held, cause);
	}

	/** The release could not run on the caller's thread and ran on this one. */
	void releaseHandedOff(LockOperation operation, String key, String store, Throwable releaseError,
			@Nullable Throwable error) {
		LockLog.releaseHandedOff(operation, key, store, releaseError, error);
	}

	/**
	 * The call ran under the lock and the lock was released. Never throws.
	 * @param released what the release found, or {@code null} when the store did not answer
	 */
	void finished(LockOperation operation, String key, String store, LockHandle handle, @Nullable Throwable error,
			boolean cancelled, @Nullable ReleaseResult released) {
		if (LockLog.isFinishLogged(operation)) {
			try {
				LockLog.finished(operation, key, store, handle.elapsed(), error, cancelled);
			}
			catch (RuntimeException ex) {
				// The lock is released; a log appender's trouble must not mask the call's result.
			}
		}
		if (this.listener != null) {
			tell(operation, key, (released == null) ? EventListener.Outcome.STORE_FAILED
					: (released == ReleaseResult.NOT_OWNER) ? EventListener.Outcome.LOST
							: EventListener.Outcome.RELEASED);
		}
	}

	/**
	 * A renewal ended: extended, found the lock lost (see {@link #lost}), or the store did
	 * not answer and it is retried.
	 * @param error the store's failure, for {@link LockRenewals.RenewalResult#FAILED}
	 */
	void renewed(LockHandle handle, LockRenewals.RenewalResult result, @Nullable Throwable error) {
		this.metrics.renewed(result);
		if (error != null) {
			LockLog.renewalFailed(handle.lease(), error);
		}
	}

	/**
	 * A renewal found the lock lost while its holder still runs: another caller may be in.
	 * @param cause why it was gone, from {@link LockManager#renewalLossCause}
	 */
	void lost(LockOperation operation, String key, String store, LockHandle handle, String cause) {
		LockLog.lost(operation, key, store, handle.elapsed(), cause);
	}

	private void tell(LockOperation operation, String key, EventListener.Outcome outcome) {
		EventListener eventListener = this.listener;
		if (eventListener != null) {
			try {
				eventListener.lockEvent(operation.resourcePart(key), operation.description(), outcome);
			}
			catch (RuntimeException ex) {
				// A listener's trouble must not stand between a lock and its release.
			}
		}
	}

	private void acquireEnded(AcquireResult result, @Nullable Duration waited) {
		this.metrics.acquireAttempted(result);
		if (waited != null) {
			this.metrics.waited(result, waited);
		}
	}

	private static void storeAnswered(LockOperation operation, String store) {
		long failures = operation.storeOutage().recovered();
		if (failures > 0) {
			try {
				LockLog.storeRecovered(operation, store, failures);
			}
			catch (RuntimeException ex) {
				// A log appender's trouble must not stand between a granted lock and its release.
			}
		}
	}

}
