package io.github.lockable.test;

import java.util.Objects;

/**
 * What one {@code @Lockable} method or {@code LockTemplate} call did with its lock, as the
 * {@link LockableTestKit} recorded it.
 *
 * @param key the key's resource part, without the key prefix
 * @param method the caller, {@code Type.name(Args)}, or {@code LockTemplate}
 * @param outcome what happened
 */
public record LockEvent(String key, String method, Outcome outcome) {

	/**
	 * Creates the event.
	 * @param key the key's resource part, without the key prefix
	 * @param method the caller, {@code Type.name(Args)}, or {@code LockTemplate}
	 * @param outcome what happened
	 */
	public LockEvent {
		Objects.requireNonNull(key, "key must not be null");
		Objects.requireNonNull(method, "method must not be null");
		Objects.requireNonNull(outcome, "outcome must not be null");
	}

	/** What happened to a call's lock. */
	public enum Outcome {

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
