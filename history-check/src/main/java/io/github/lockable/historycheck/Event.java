package io.github.lockable.historycheck;

/**
 * One event of a history, stamped by the fenced resource server's clock.
 *
 * @param micros the resource server's {@code TIME} in microseconds when it recorded the event
 * @param actor the worker ({@code w1}...) or {@code driver}
 * @param type what happened: {@code request}, {@code grant}, {@code refused}, {@code failed},
 * {@code write-accepted}, {@code write-refused}, {@code check}, {@code held}, {@code release},
 * {@code released}, {@code release-failed}, {@code fault-start}, {@code fault-end}, {@code ready}
 * @param key the lock key, or the fault's name for the driver's events
 * @param token the fencing token, 0 when there is none
 * @param last for a write, the last token the resource had accepted for the key
 * @param extra the lease's TTL in ms for {@code request} and {@code grant}, {@code true} or
 * {@code false} for {@code held}, the exception's name for a failure
 */
record Event(long micros, String actor, String type, String key, long token, long last, String extra) {

	static final String FIELD_SEPARATOR = "|";

	/**
	 * Reads an event as the resource's script wrote it: {@code micros|actor|type|key|token|last|extra}.
	 * @param line the line
	 * @return the event
	 */
	static Event parse(String line) {
		String[] fields = line.split("\\|", 7);
		return new Event(Long.parseLong(fields[0]), fields[1], fields[2], fields[3], Long.parseLong(fields[4]),
				Long.parseLong(fields[5]), (fields.length > 6) ? fields[6] : "");
	}

	long ttlMillis() {
		return this.extra.isEmpty() ? 0 : Long.parseLong(this.extra);
	}

}
