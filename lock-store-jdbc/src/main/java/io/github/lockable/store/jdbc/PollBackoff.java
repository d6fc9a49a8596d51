package io.github.lockable.store.jdbc;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long a waiter for a lock row sleeps before it looks again: 5ms at first, doubled
 * for every further wait on the same key up to 200ms, and back to 5ms once this JVM
 * acquires or releases the key. A short hold is seen within milliseconds, a long one costs
 * at most five reads a second per waiting key.
 */
final class PollBackoff {

	static final Duration FIRST = Duration.ofMillis(5);

	static final Duration MAX = Duration.ofMillis(200);

	/** Keys whose waiters gave up are never reset; past this many, every key starts over. */
	private static final int MAX_KEYS = 10_000;

	private final ConcurrentHashMap<String, Duration> next = new ConcurrentHashMap<>();

	/** The next sleep for a key, between {@link #FIRST} and {@link #MAX}; the one after it doubles. */
	Duration next(String key) {
		if (this.next.size() > MAX_KEYS) {
			this.next.clear();
		}
		Duration stored = this.next.get(key);
		Duration current = (stored != null) ? stored : FIRST;
		this.next.put(key, (current.compareTo(MAX.dividedBy(2)) > 0) ? MAX : current.multipliedBy(2));
		return current;
	}

	void reset(String key) {
		this.next.remove(key);
	}

}
