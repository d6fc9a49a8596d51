package io.github.lockable.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a store that cannot be told of another process's release (a lock file, a lock row)
 * waits for one: a waiter sleeps 5ms at first, doubled for every further wait on the same
 * key up to 200ms, and back to 5ms once this JVM acquires or releases the key; a release in
 * this JVM wakes its waiters at once ({@link ReleaseWaiters}). A short hold is seen within
 * milliseconds, a long one costs at most five reads a second per waiting key.
 */
public final class PollBackoff {

	/** The first sleep. */
	public static final Duration FIRST = Duration.ofMillis(5);

	/** The longest sleep. */
	public static final Duration MAX = Duration.ofMillis(200);

	/** Keys whose waiters gave up are never reset; past this many, every key starts over. */
	private static final int MAX_KEYS = 10_000;

	private final ConcurrentHashMap<String, Duration> next = new ConcurrentHashMap<>();

	private final ReleaseWaiters waiters = new ReleaseWaiters();

	/**
	 * A wait for the key's release: it completes after the key's next sleep, when this JVM
	 * releases the key, or after {@code maxWait}, whichever comes first.
	 * @param key the full key
	 * @param maxWait the longest wait
	 * @return a stage that completes, never exceptionally, when the wait ends, and whose
	 * dependents run off the thread that ended it ({@link NonBlockingCallers#offWakingThread})
	 */
	public CompletableFuture<Void> await(String key, Duration maxWait) {
		Duration poll = next(key);
		return NonBlockingCallers.offWakingThread(this.waiters.await(key, (poll.compareTo(maxWait) < 0) ? poll : maxWait));
	}

	/**
	 * This JVM released the key: its waiters wake, and its sleeps start over.
	 * @param key the full key
	 */
	public void released(String key) {
		reset(key);
		this.waiters.released(key);
	}

	/** Wakes every waiter, as the store closes. */
	public void releasedAll() {
		this.waiters.releasedAll();
	}

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
