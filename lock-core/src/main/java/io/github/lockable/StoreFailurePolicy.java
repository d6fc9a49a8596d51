package io.github.lockable;

/**
 * What a {@code @Lockable} method does when the lock store does not answer.
 */
public enum StoreFailurePolicy {

	/**
	 * Do not run the method; throw {@link io.github.lockable.LockStoreUnavailableException}
	 * (HTTP 503).
	 */
	FAIL,

	/**
	 * Run the method without a lock, and log a warning.
	 */
	PROCEED

}
