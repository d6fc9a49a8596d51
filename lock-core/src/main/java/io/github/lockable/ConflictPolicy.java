package io.github.lockable;

/**
 * What a {@link Lockable} method does when another caller holds its lock. The method does
 * not run in any case.
 */
public enum ConflictPolicy {

	/**
	 * The application's default, {@code lockable.default-conflict-policy}.
	 */
	DEFAULT,

	/**
	 * HTTP 409 Conflict: somebody is changing the same resource.
	 */
	CONFLICT,

	/**
	 * HTTP 423 Locked: a global operation holds the lock.
	 */
	LOCKED,

	/**
	 * HTTP 429 Too Many Requests.
	 */
	TOO_MANY_REQUESTS,

	/**
	 * Do not run and do not fail: return {@code null}, {@code Optional.empty()}, a completed
	 * future of {@code null} or an empty {@code Mono}, and log "skipped, already running".
	 * The normal answer for scheduled and batch jobs. Not allowed on methods that return a
	 * primitive.
	 */
	SKIP

}
