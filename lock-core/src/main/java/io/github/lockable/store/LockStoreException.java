package io.github.lockable.store;

import org.jspecify.annotations.Nullable;

/**
 * A lock store did not answer: unreachable, slower than its timeout, or broken. Its
 * {@link #getCode() code} is a short, stable word for logs and alerts, such as
 * {@code TIMEOUT}, {@code UNREACHABLE} or an errno name like {@code EACCES}.
 */
public class LockStoreException extends RuntimeException {

	/** The code of a failure no store-specific code describes. */
	public static final String GENERIC_CODE = "STORE_ERROR";

	/** The failure's code. */
	private final String code;

	/**
	 * Creates the exception with the generic code.
	 * @param message what went wrong
	 */
	public LockStoreException(String message) {
		this(message, GENERIC_CODE, null);
	}

	/**
	 * Creates the exception with the generic code.
	 * @param message what went wrong
	 * @param cause the failure behind it, if any
	 */
	public LockStoreException(String message, @Nullable Throwable cause) {
		this(message, GENERIC_CODE, cause);
	}

	/**
	 * Creates the exception.
	 * @param message what went wrong
	 * @param code the failure's code, such as {@code TIMEOUT} or {@code UNREACHABLE}
	 * @param cause the failure behind it, if any
	 */
	public LockStoreException(String message, String code, @Nullable Throwable cause) {
		super(message, cause);
		this.code = code;
	}

	/**
	 * A short, stable word for what failed.
	 * @return the failure code
	 */
	public String getCode() {
		return this.code;
	}

}
