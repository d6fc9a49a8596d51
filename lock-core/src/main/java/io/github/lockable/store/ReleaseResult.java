package io.github.lockable.store;

/**
 * What a release found.
 */
public enum ReleaseResult {

	/**
	 * The lock was still ours and is now deleted.
	 */
	RELEASED,

	/**
	 * The lock was gone or held by another owner (its TTL ran out before the release);
	 * nothing was deleted.
	 */
	NOT_OWNER,

	/**
	 * This handle was released before; the store was not asked again.
	 */
	ALREADY_RELEASED

}
