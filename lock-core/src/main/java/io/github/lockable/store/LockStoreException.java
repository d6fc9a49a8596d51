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

	private final String code;

	public LockStoreException(String message) {
		this(message, GENERIC_CODE, null);
	}

	public LockStoreException(String message, @Nullable Throwable cause) {
		this(message, GENERIC_CODE, cause);
	}

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
