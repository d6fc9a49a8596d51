package io.github.lockable.store;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The answer of {@link LockStore#acquire(LockRequest)}: exactly one of acquired, held by
 * someone else, or failed.
 */
public sealed interface AcquireResult {

	/**
	 * The lock was granted.
	 *
	 * @param handle releases the lock, once
	 */
	record Acquired(LockHandle handle) implements AcquireResult {

		/**
		 * Creates the result.
		 * @param handle releases the lock, once
		 */
		public Acquired {
			Objects.requireNonNull(handle, "handle must not be null");
		}

	}

	/**
	 * Somebody else holds the lock.
	 *
	 * @param remainingTtl how long the holder's lock still lives, or {@code null} when the
	 * store cannot tell (a key without expiry)
	 * @param age how long ago the holder acquired it, or {@code null} when the store does
	 * not know
	 */
	record Held(@Nullable Duration remainingTtl, @Nullable Duration age) implements AcquireResult {

	}

	/**
	 * The store could not answer: unreachable, too slow, or broken.
	 *
	 * @param cause what went wrong
	 */
	record Failed(LockStoreException cause) implements AcquireResult {

		/**
		 * Creates the result.
		 * @param cause what went wrong
		 */
		public Failed {
			Objects.requireNonNull(cause, "cause must not be null");
		}

	}

}
