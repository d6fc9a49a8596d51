package io.github.lockable.store;

import java.time.Duration;
import java.util.Objects;

/**
 * A request for one lock, validated when it is created.
 *
 * @param key the full lock key, prefix included; never empty, free of white space and
 * control characters, and without an unpaired surrogate (which has no UTF-8 form: encoded,
 * it would become {@code ?} and share its lock with the key that has a {@code ?} there)
 * @param ttl how long the lock lives unless released or extended; at least one millisecond
 */
public record LockRequest(String key, Duration ttl) {

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
