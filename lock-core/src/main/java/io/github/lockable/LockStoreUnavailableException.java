package io.github.lockable;

/**
 * The lock store did not answer within {@code lockable.acquire-timeout}, so a
 * {@link Lockable} method did not run ({@code lockable.store-failure=fail}). The web adapter
 * answers HTTP 503 with {@code Retry-After: 1}.
 */
public class LockStoreUnavailableException extends LockableException {

	/**
	 * Creates the exception.
	 * @param message what failed
	 * @param cause the store's failure
	 */
	public LockStoreUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

	@Override
	public boolean isRetryable() {
		return true;
	}

}
