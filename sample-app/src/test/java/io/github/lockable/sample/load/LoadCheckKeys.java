package io.github.lockable.sample.load;

import java.util.UUID;

/**
 * The Redis keys of one load run's checks, shared by the sample instances (which write
 * them) and the test (which reads them). They are no lock keys: outside the sample's key
 * prefix, and named after the run, so runs never see each other's counts. The keys of one
 * slot share a hash tag, so a Redis Cluster keeps them on one node and MGET/MSET work.
 *
 * @param run the run's id
 */
record LoadCheckKeys(UUID run) {

	/** How many lock keys the load spreads over, so that requests meet each other. */
	static final int SLOTS = 8;

	/** The sample's {@code lockable.key-prefix}. */
	static final String LOCK_KEY_PREFIX = "lockable-sample:";

	/** What a started instance prints, followed by its port. */
	static final String READY = "load-check ready on port ";

	static String lockKey(int slot) {
		return "load-check:" + slot;
	}

	static String fullLockKey(int slot) {
		return LOCK_KEY_PREFIX + lockKey(slot);
	}

	String occupancy(int slot) {
		return key(slot, "occupancy");
	}

	String overlaps(int slot) {
		return key(slot, "overlaps");
	}

	String updates(int slot) {
		return key(slot, "updates");
	}

	String fence(int slot) {
		return key(slot, "fence");
	}

	String staleFences(int slot) {
		return key(slot, "stale-fences");
	}

	private String key(int slot, String counter) {
		return "load-check:{" + this.run + ":" + slot + "}:" + counter;
	}

}
