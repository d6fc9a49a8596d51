package io.github.lockable.core;

import java.time.Duration;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.store.AcquireResult;

import org.springframework.util.function.SingletonSupplier;

/**
 * What the store's answer to an acquire means for the call (run locked, run unlocked, skip,
 * refuse): the one place {@link LockFlow} decides, for every return kind and the template
 * alike. The lock's {@link LockEvents} report the outcome to the meters, the log and the
 * acquisition observation.
 */
final class AcquireDecisions {

	private final SingletonSupplier<String> store;

	/**
	 * @param store the lock store's name, obtained on the first decision
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
	 * What the call does after an acquire attempt, reported to the terms' events. Nothing
	 * here can throw once a lock was acquired: the caller must reach its release.
	 * @param terms the terms of the acquire, whose events report it
	 * @param start when it started, from {@link #start(LockTerms)}
	 */
	Decision decide(LockOperation operation, String key, AcquireResult result, LockTerms terms, long start,
			Observation acquisition, StoreFailurePolicy storeFailure) {
		LockEvents events = terms.events();
		@Nullable Duration waited = terms.triesOnce() ? null : Duration.ofNanos(System.nanoTime() - start);
		String store = this.store.obtain();
		if (result instanceof AcquireResult.Acquired acquired) {
			events.acquired(operation, store, acquired, waited, acquisition);
			return new Decision.RunLocked(acquired.handle(), acquisition);
		}
		if (result instanceof AcquireResult.Held held) {
			boolean skipped = operation.conflictPolicy() == ConflictPolicy.SKIP;
			events.held(operation, key, store, held, skipped, waited, acquisition);
			if (skipped) {
				return Decision.SKIP;
			}
			return new Decision.Refuse(new LockConflictException(operation.conflictPolicy(),
					(held.remainingTtl() != null) ? held.remainingTtl() : operation.ttl()));
		}
		AcquireResult.Failed failed = (AcquireResult.Failed) result;
		boolean proceeding = storeFailure == StoreFailurePolicy.PROCEED;
		events.storeFailed(operation, key, store, failed, proceeding, waited, acquisition);
		if (proceeding) {
			return Decision.RUN_UNLOCKED;
		}
		if (operation.conflictPolicy() == ConflictPolicy.SKIP) {
			// Its callers are schedulers and batch runners: the throttled ERROR above says it,
			// an exception would only add a stack trace per run.
			return Decision.SKIP;
		}
		return new Decision.Refuse(new LockStoreUnavailableException(
				"Lock store unavailable; " + operation.description() + " did not run", failed.cause()));
	}

}
