package io.github.lockable.store;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Callers waiting, inside one JVM, for the release of a lock: a building block for stores
 * that implement {@link LockStore#awaitRelease(String, Duration)} with an in-JVM signal.
 * <p>
 * No thread waits: each waiter is a future, completed by {@link #released(String)} or by
 * the JDK's one shared timer thread at its maximum wait, whichever comes first, and then
 * forgotten.
 */
public final class ReleaseWaiters {

	private final Map<String, Set<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();

	/**
	 * Registers a waiter for the release of a key.
	 * @param key the lock key
	 * @param maxWait the longest wait; zero or negative completes at once
	 * @return a future completed with {@code null} on the key's next
	 * {@link #released(String) release} or after {@code maxWait}
	 */
	public CompletableFuture<Void> await(String key, Duration maxWait) {
		Objects.requireNonNull(key, "key must not be null");
		CompletableFuture<Void> waiter = timer(maxWait);
		if (waiter.isDone()) {
			return waiter;
		}
		this.waiters.compute(key, (k, current) -> {
			Set<CompletableFuture<Void>> set = (current != null) ? current : ConcurrentHashMap.newKeySet();
			set.add(waiter);
			return set;
		});
		waiter.whenComplete((done, ex) -> this.waiters.computeIfPresent(key, (k, current) -> {
			current.remove(waiter);
			return current.isEmpty() ? null : current;
		}));
		return waiter;
	}

	/**
	 * Wakes every waiter of a key.
	 * @param key the lock key that was released
	 */
	public void released(String key) {
		Set<CompletableFuture<Void>> set = this.waiters.get(key);
		if (set != null) {
			set.forEach((waiter) -> waiter.complete(null));
		}
	}

	/**
	 * Wakes every waiter of every key, for a store that closes.
	 */
	public void releasedAll() {
		this.waiters.values().forEach((set) -> set.forEach((waiter) -> waiter.complete(null)));
	}

	/**
	 * A future completed with {@code null} after the given time, by the JDK's one shared
	 * timer thread, whose task is dropped if the future completes first.
	 * @param maxWait the time; zero or negative completes at once, and a very long one is
	 * cut to about 292 years
	 * @return the future
	 */
	public static CompletableFuture<Void> timer(Duration maxWait) {
		Objects.requireNonNull(maxWait, "maxWait must not be null");
		if (maxWait.isNegative() || maxWait.isZero()) {
			return CompletableFuture.completedFuture(null);
		}
		long nanos = (maxWait.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) ? Long.MAX_VALUE : maxWait.toNanos();
		return new CompletableFuture<Void>().completeOnTimeout(null, nanos, TimeUnit.NANOSECONDS);
	}

}
