package io.github.lockable.store;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A request for one lock, validated when it is created.
 *
 * @param key the full lock key, prefix included; never empty, free of white space and
 * control characters, and without an unpaired surrogate (which has no UTF-8 form: encoded,
 * it would become {@code ?} and share its lock with the key that has a {@code ?} there)
 * @param ttl how long the lock lives unless released or extended; at least one millisecond
 * @param withFencingToken whether the caller needs the fencing token and the store should
 * issue it in the acquire itself, as a caller that must not block for it later does (a
 * {@code Mono} on an event loop); otherwise a store may issue it when it is first asked for
 * ({@link LockStore#fencingToken(LockLease)})
 * @param holder who asks, for a store to keep beside the token so that listing its locks
 * can show it ({@link LockStore#locks(String, int)}); {@code null} when unknown
 */
public record LockRequest(String key, Duration ttl, boolean withFencingToken, @Nullable LockHolder holder) {

	/**
	 * A request of an unknown holder.
	 * @param key the full lock key
	 * @param ttl the lock's TTL
	 * @param withFencingToken whether the store should issue the fencing token in the
	 * acquire
	 */
	public LockRequest(String key, Duration ttl, boolean withFencingToken) {
		this(key, ttl, withFencingToken, null);
	}

	/**
	 * A request whose fencing token, if ever needed, is issued when first asked for.
	 * @param key the full lock key
	 * @param ttl the lock's TTL
	 */
	public LockRequest(String key, Duration ttl) {
		this(key, ttl, false, null);
	}

	/**
	 * Creates the request.
	 * @param key the full lock key
	 * @param ttl the lock's TTL
	 * @param withFencingToken whether the store should issue the fencing token in the
	 * acquire itself
	 * @param holder who asks, if the store should keep it
	 */
	public LockRequest {
		Objects.requireNonNull(key, "key must not be null");
		Objects.requireNonNull(ttl, "ttl must not be null");
		if (key.isEmpty()) {
			throw new IllegalArgumentException("key must not be empty");
		}
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (c <= ' ' || c == 0x7f) {
				throw new IllegalArgumentException("key must not contain white space or control characters");
			}
			if (Character.isSurrogate(c)) {
				if (!Character.isHighSurrogate(c) || i + 1 == key.length() || !Character.isLowSurrogate(key.charAt(i + 1))) {
					throw new IllegalArgumentException("key must not contain an unpaired surrogate");
				}
				i++;
			}
		}
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
	}

}
