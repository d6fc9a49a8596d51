package io.github.lockable.core;

import io.micrometer.observation.Observation;

import io.github.lockable.store.LockHandle;

/**
 * What a call does after its acquire attempt, as {@link LockFlow} decides it; the advice's
 * strategies and the template translate it into their kind of result.
 */
sealed interface Decision {

	/** Do not run: the policy is SKIP. */
	Decision SKIP = new Skip();

	/** Run without a lock: the store failed and the policy says proceed. */
	Decision RUN_UNLOCKED = new RunUnlocked();

	/**
	 * Run, then release.
	 * @param handle the granted lock
	 * @param acquisition the ended acquisition observation, whose parent the execution
	 * observation shares
	 */
	record RunLocked(LockHandle handle, Observation acquisition) implements Decision {
	}

	/** The policy is SKIP. */
	record Skip() implements Decision {
	}

	/** The store failed and the policy is to proceed. */
	record RunUnlocked() implements Decision {
	}

	/**
	 * Do not run; the caller gets the exception.
	 * @param exception a conflict or an unavailable store
	 */
	record Refuse(RuntimeException exception) implements Decision {
	}

}
