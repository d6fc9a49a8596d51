package io.github.lockable.core;

import java.time.Duration;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.observation.LockObservationContext.Outcome;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockStoreException;

import org.springframework.util.function.SingletonSupplier;

/**
 * What the store's answer to an acquire means for the call (run locked, run unlocked, skip,
 * refuse), with its log line, the store-outage throttle and the end of the acquisition
 * observation: the one place {@link LockFlow} decides, for every return kind and the
 * template alike.
 */
final class AcquireDecisions {

	private final SingletonSupplier<String> store;

	/**
	 * @param store the lock store's name, obtained on the first decision that names it
	 */
	AcquireDecisions(Supplier<String> store) {
		this.store = SingletonSupplier.of(store);
	}

	/**
	 * When an acquire on these terms starts, for its {@code lockable.acquire.wait} timer.
	 * @param terms the terms the acquire is made on
	 * @return {@link System#nanoTime()}, or zero when the acquire tries once and has no timer
	 */
	static long start(LockTerms terms) {
		return terms.triesOnce() ? 0 : System.nanoTime();
	}

	/**
	 * What the call does after an acquire attempt; records it on the lock's metrics, logs
	 * held locks and store failures, and stops the acquisition observation with the
	 * outcome. Nothing here can throw once a lock was acquired: the caller must reach its
	 * release.
	 * @param terms the terms of the acquire, whose metrics record it
	 * @param start when it started, from {@link #start(LockTerms)}
	 */
	Decision decide(LockOperation operation, String key, AcquireResult result, LockTerms terms, long start,
			Observation acquisition, StoreFailurePolicy storeFailure) {
		metered(result, terms, start);
		if (result instanceof AcquireResult.Acquired acquired) {
			LockObservations.acquired(acquisition, Outcome.ACQUIRED, null);
			storeAnswered(operation);
			return new Decision.RunLocked(acquired.handle(), acquisition);
		}
		String store = this.store.obtain();
		if (result instanceof AcquireResult.Held held) {
			storeAnswered(operation);
			if (operation.conflictPolicy() == ConflictPolicy.SKIP) {
				LockObservations.acquired(acquisition, Outcome.SKIPPED, null);
				LockLog.skipped(operation, key, store, held);
				return Decision.SKIP;
			}
			LockObservations.acquired(acquisition, Outcome.HELD, null);
			LockLog.conflicted(operation, key, store, held);
			return new Decision.Refuse(new LockConflictException(operation.conflictPolicy(),
					(held.remainingTtl() != null) ? held.remainingTtl() : operation.ttl()));
		}
		LockStoreException cause = ((AcquireResult.Failed) result).cause();
		LockObservations.acquired(acquisition, Outcome.FAILED, cause);
		boolean proceeding = storeFailure == StoreFailurePolicy.PROCEED;
		LockLog.storeFailed(operation, key, store, cause, proceeding,
				operation.storeOutage().failed(cause.getCode(), System.nanoTime()));
		if (proceeding) {
			return Decision.RUN_UNLOCKED;
		}
		if (operation.conflictPolicy() == ConflictPolicy.SKIP) {
			// Its callers are schedulers and batch runners: the throttled ERROR above says it,
			// an exception would only add a stack trace per run.
			return Decision.SKIP;
		}
		return new Decision.Refuse(new LockStoreUnavailableException(
				"Lock store unavailable; " + operation.description() + " did not run", cause));
	}

	/** The metrics are guarded: a hook that throws does not stand between a lock and its release. */
	private static void metered(AcquireResult result, LockTerms terms, long start) {
		LockMetrics metrics = terms.metrics();
		metrics.acquireAttempted(result);
		if (!terms.triesOnce()) {
			metrics.waited(result, Duration.ofNanos(System.nanoTime() - start));
		}
	}

	private void storeAnswered(LockOperation operation) {
		long failures = operation.storeOutage().recovered();
		if (failures > 0) {
			try {
				LockLog.storeRecovered(operation, this.store.obtain(), failures);
			}
			catch (RuntimeException ex) {
				// A log appender's trouble must not stand between a granted lock and its release.
			}
		}
	}

}
