package io.github.lockable.store;

import java.util.List;

/**
 * The locks a store holds under a prefix, at most as many as asked for.
 *
 * @param locks the locks, sorted by key
 * @param truncated whether the store holds more locks under the prefix than were listed
 */
public record LockListing(List<StoredLock> locks, boolean truncated) {

	/**
	 * Creates the listing.
	 * @param locks the locks, sorted by key
	 * @param truncated whether the store holds more locks under the prefix than were listed
	 */
	public LockListing {
		locks = List.copyOf(locks);
	}

}
