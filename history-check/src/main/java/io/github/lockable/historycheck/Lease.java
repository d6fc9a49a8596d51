package io.github.lockable.historycheck;

/**
 * A lease as one worker's history shows it, every time bounded by what the resource's clock
 * saw: the worker asked at {@code requested}, had it by {@code granted}, still believed it held
 * it until {@code releaseRequested}, and knew it gone by {@code releasedBy}.
 *
 * @param worker the worker
 * @param key the lock key
 * @param token the fencing token
 * @param ttlMicros the lease's TTL
 * @param requested when the worker asked (the store granted it later)
 * @param granted when the worker recorded the grant (the store granted it earlier)
 * @param releaseRequested when the worker stopped relying on it (released later)
 * @param releasedBy when the lease surely ended: its release confirmed, else its TTL after
 * the grant
 */
record Lease(String worker, String key, long token, long ttlMicros, long requested, long granted,
		long releaseRequested, long releasedBy) {

	/**
	 * Until when the store surely still kept the lease: neither released nor expired.
	 */
	long surelyLiveUntil() {
		return Math.min(this.releaseRequested, this.requested + this.ttlMicros);
	}

}
