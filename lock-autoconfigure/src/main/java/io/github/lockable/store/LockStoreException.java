package io.github.lockable.store;

/**
 * A lock store did not answer: unreachable, slower than its timeout, or broken.
 */
public class LockStoreException extends RuntimeException {

	public LockStoreException(String message) {
		super(message);
	}

	public LockStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
