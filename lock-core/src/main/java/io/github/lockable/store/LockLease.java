package io.github.lockable.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a store hands out when it grants a lock: the key, the owner's token, the fencing
 * token, when it was acquired and for how long.
 * <p>
 * The token proves ownership to the store on release and extend. It is a secret of the
 * holder: {@link #toString()} leaves it out, and it must never be logged or returned to a
 * client. The fencing token is no secret: it may be logged and handed to the resources
 * the lock protects, which can refuse a write carrying a smaller token than one already
 * seen.
 *
 * @param key the full lock key
 * @param token the random token that identifies this acquisition
 * @param fencingToken the fencing token issued in the acquire: at least 1, and strictly
 * greater than every fencing token the store issued before for the same key, even after
 * that lock expired or was released; or 0 when the store issues it only when asked for
 * ({@link LockStore#fencingToken(LockLease)})
 * @param acquiredAt wall-clock time of the acquisition
 * @param ttl the TTL the lock was acquired with
 */
public record LockLease(String key, String token, long fencingToken, Instant acquiredAt, Duration ttl) {

	/**
	 * Creates the lease.
	 * @param key the full key
	 * @param token the owner's token
	 * @param fencingToken the fencing token, or 0 when issued only when asked for
	 * @param acquiredAt wall-clock time of the acquisition
	 * @param ttl the TTL the lock was acquired with
	 */
	public LockLease {
		Objects.requireNonNull(key, "key must not be null");
		Objects.requireNonNull(token, "token must not be null");
		if (fencingToken < 0) {
			throw new IllegalArgumentException("fencingToken must not be negative, was " + fencingToken);
		}
		Objects.requireNonNull(acquiredAt, "acquiredAt must not be null");
		Objects.requireNonNull(ttl, "ttl must not be null");
	}

	@Override
	public String toString() {
		return "LockLease[key=" + this.key + ", fencingToken=" + this.fencingToken + ", acquiredAt=" + this.acquiredAt
				+ ", ttl=" + this.ttl + "]";
	}

}
