package io.github.lockable.store;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long a waiter of a store that cannot be told of a release (a lock file, a lock row)
 * sleeps before it looks again: 5ms at first, doubled for every further wait on the same
 * key up to 200ms, and back to 5ms once this JVM acquires or releases the key. A short hold
 * is seen within milliseconds, a long one costs at most five reads a second per waiting
 * key.
 */
public final class PollBackoff {

	/** The first sleep. */
	public static final Duration FIRST = Duration.ofMillis(5);

	/** The longest sleep. */
	public static final Duration MAX = Duration.ofMillis(200);

	/** Keys whose waiters gave up are never reset; past this many, every key starts over. */
	private static final int MAX_KEYS = 10_000;

	private final ConcurrentHashMap<String, Duration> next = new ConcurrentHashMap<>();

	/**
	 * The next sleep for a key; the one after it doubles.
	 * @param key the full key
	 * @return between {@link #FIRST} and {@link #MAX}
	 */
	public Duration next(String key) {
		if (this.next.size() > MAX_KEYS) {
			this.next.clear();
		}
		Duration stored = this.next.get(key);
		Duration current = (stored != null) ? stored : FIRST;
		this.next.put(key, (current.compareTo(MAX.dividedBy(2)) > 0) ? MAX : current.multipliedBy(2));
		return current;
	}

	/**
	 * Starts the key's sleeps over, once this JVM acquired or released it.
	 * @param key the full key
	 */
	public void reset(String key) {
		this.next.remove(key);
	}

}
