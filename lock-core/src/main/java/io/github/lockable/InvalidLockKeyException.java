package io.github.lockable;

/**
 * A lock key broke the key rules: empty, too long, or with a character outside
 * {@code A-Z a-z 0-9 : . _ -}. The store was not asked and the method did not run; the web
 * adapter answers HTTP 400. The message says which resolver and which rule, never the
 * offending value.
 */
public class InvalidLockKeyException extends LockableException {

	/**
	 * Creates the exception.
	 * @param message what was wrong, without the raw key
	 */
	public InvalidLockKeyException(String message) {
		super(message);
	}

	@Override
	public boolean isRetryable() {
		return false;
	}

}
