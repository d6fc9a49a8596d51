package io.github.lockable.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A lock held in a store now, by any instance, as an operator sees it: never its token.
 *
 * @param key the full lock key, prefix included
 * @param ttlLeft how long the lock lives unless released or extended, as the store saw it
 * when listing
 * @param holder who took it, when the store knows: {@code null} for a lock written by a
 * caller that told the store nothing (another version, another client)
 * @param acquiredAt when it was taken, by the clock of the store or of its holder, when the
 * store knows
 */
public record StoredLock(String key, Duration ttlLeft, @Nullable LockHolder holder, @Nullable Instant acquiredAt) {

	/**
	 * Creates the description of a lock.
	 * @param key the full key
	 * @param ttlLeft how long the lock still lives
	 * @param holder who took it, when the store knows
	 * @param acquiredAt when it was taken, when the store knows
	 */
	public StoredLock {
		Objects.requireNonNull(key, "key must not be null");
		Objects.requireNonNull(ttlLeft, "ttlLeft must not be null");
	}

}
