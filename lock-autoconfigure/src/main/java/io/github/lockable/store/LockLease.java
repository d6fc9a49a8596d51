package io.github.lockable.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a store hands out when it grants a lock: the key, the owner's token, when it was
 * acquired and for how long.
 * <p>
 * The token proves ownership to the store on release and extend. It is a secret of the
 * holder: {@link #toString()} leaves it out, and it must never be logged or returned to a
 * client.
 *
 * @param key the full lock key
 * @param token the random token that identifies this acquisition
 * @param acquiredAt wall-clock time of the acquisition
 * @param ttl the TTL the lock was acquired with
 */
public record LockLease(String key, String token, Instant acquiredAt, Duration ttl) {

	public LockLease {
		Objects.requireNonNull(key, "key must not be null");
		Objects.requireNonNull(token, "token must not be null");
		Objects.requireNonNull(acquiredAt, "acquiredAt must not be null");
		Objects.requireNonNull(ttl, "ttl must not be null");
	}

	@Override
	public String toString() {
		return "LockLease[key=" + this.key + ", acquiredAt=" + this.acquiredAt + ", ttl=" + this.ttl + "]";
	}

}
