package io.github.lockable.core;

/**
 * Hears how each locked call went, {@code @Lockable} methods and
 * {@link io.github.lockable.LockTemplate} alike: the test kit records these as its
 * {@code LockEvent}s. Called on the thread that decided the outcome, after the meters and
 * the log heard it; one that throws is ignored, so that it never costs a granted lock its
 * release.
 */
@FunctionalInterface
public interface LockEventListener {

	/**
	 * One outcome of one call.
	 * @param key the key's resource part, without the key prefix
	 * @param method the caller, {@code Type.name(Args)} or {@code LockTemplate}
	 * @param outcome what happened
	 */
	void lockEvent(String key, String method, Outcome outcome);

	/** What happened to a call's lock. */
	enum Outcome {

		/** The lock was granted. */
		ACQUIRED,

		/** The call ended and its lock was released. */
		RELEASED,

		/** The lock was held by another caller, and the call was refused. */
		REFUSED,

		/** The lock was held by another caller, and the call was skipped (policy SKIP). */
		SKIPPED,

		/** The call ended and its release found the lock gone: another caller could get in. */
		LOST,

		/** The store did not answer the acquire or the release. */
		STORE_FAILED

	}

}
