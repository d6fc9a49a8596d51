package io.github.lockable.historycheck;

/**
 * When the fault driver injected a fault, as the resource's clock saw it.
 *
 * @param fault the mode's name
 * @param start when the fault began
 * @param end when it was healed
 */
record FaultWindow(String fault, long start, long end) {

	/** Scheduling slack on a loaded machine. */
	static final long MARGIN_MICROS = 500_000;

	/**
	 * Whether the fault can explain what happened between the two times: leases granted
	 * before it may run on until a TTL after it ends.
	 */
	boolean explains(long from, long to, long ttlMicros) {
		return from <= this.end + ttlMicros + MARGIN_MICROS && to >= this.start;
	}

}
