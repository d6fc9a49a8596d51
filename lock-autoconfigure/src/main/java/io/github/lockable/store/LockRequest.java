package io.github.lockable.store;

import java.time.Duration;
import java.util.Objects;

/**
 * A request for one lock, validated when it is created.
 *
 * @param key the full lock key, prefix included; never empty and free of white space and
 * control characters
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
		}
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
	}

}
