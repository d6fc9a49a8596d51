package io.github.lockable;

import java.time.Duration;
import java.util.Objects;

/**
 * Another caller holds the lock of a {@link Lockable} method; the method did not run. The
 * web adapter renders it as {@code application/problem+json} with the
 * {@link #getPolicy() policy's} status and a {@code Retry-After} header.
 * <p>
 * The message names neither the key nor the holder.
 */
public class LockConflictException extends LockableException {

	/** The method's conflict policy. */
	private final ConflictPolicy policy;

	/** When the holder's lock runs out at the latest. */
	private final Duration retryAfter;

	/**
	 * Creates the exception.
	 * @param policy the method's conflict policy: {@link ConflictPolicy#CONFLICT},
	 * {@link ConflictPolicy#LOCKED} or {@link ConflictPolicy#TOO_MANY_REQUESTS}
	 * @param retryAfter when the holder's lock runs out at the latest
	 */
	public LockConflictException(ConflictPolicy policy, Duration retryAfter) {
		super("Another caller holds the lock; retry after " + Objects.requireNonNull(retryAfter).toMillis() + "ms");
		if (policy == ConflictPolicy.DEFAULT || policy == ConflictPolicy.SKIP) {
			throw new IllegalArgumentException("A conflict is not reported for policy " + policy);
		}
		this.policy = policy;
		this.retryAfter = retryAfter;
	}

	/**
	 * The policy that decides the response status.
	 * @return the conflict policy
	 */
	public ConflictPolicy getPolicy() {
		return this.policy;
	}

	/**
	 * How long the caller should wait before trying again: the holder's remaining TTL.
	 * @return the suggested wait
	 */
	public Duration getRetryAfter() {
		return this.retryAfter;
	}

	@Override
	public boolean isRetryable() {
		return true;
	}

}
