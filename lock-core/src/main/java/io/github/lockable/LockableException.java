package io.github.lockable;

/**
 * Base class of the exceptions a {@link Lockable} method throws instead of running.
 */
public abstract class LockableException extends RuntimeException {

	/**
	 * Creates the exception.
	 * @param message what happened, never naming a key's holder or token
	 */
	protected LockableException(String message) {
		super(message);
	}

	/**
	 * Creates the exception.
	 * @param message what happened, never naming a key's holder or token
	 * @param cause the failure behind it
	 */
	protected LockableException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Whether the same call may succeed if the caller tries again later.
	 * @return whether a retry makes sense
	 */
	public abstract boolean isRetryable();

}
