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
	 * Run the method without a lock. The failure is logged at ERROR, as with {@link #FAIL}
	 * (the first failure of an outage with its cause, then a summary every 10 seconds), as
	 * the work then runs unprotected: another caller may run it at the same time.
	 */
	PROCEED

}
