package io.github.lockable;

/**
 * The lock of a {@link Lockable#renew() renewed} method was lost while the method ran (a
 * renewal found it expired or taken), so the transaction the method ran in was rolled back
 * instead of committed: another caller may have run at the same time, and its writes are
 * not to be overwritten by a holder that no longer held the lock. Raise the TTL, or find out
 * why the renewals did not reach the store in time.
 */
public class LockLostException extends LockableException {

	/**
	 * Creates the exception.
	 * @param message what was lost and what happened to the transaction
	 */
	public LockLostException(String message) {
		super(message);
	}

	@Override
	public boolean isRetryable() {
		return true;
	}

}
