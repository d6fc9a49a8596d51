package io.github.lockable;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Locks in code, for what an annotation cannot express: several keys, a number of keys
 * known only at run time, a release midway through the work. An auto-configured bean.
 * <p>
 * Keys are resource parts, like a resolver's: they must match the key rule
 * ({@link InvalidLockKeyException} otherwise) and get the application's key prefix.
 * Waiting for a held lock is woken by the holder's release on Redis, on the memory store
 * and on PostgreSQL (JDBC store); the file store and the JDBC store on other databases
 * poll, every 5ms at first and at most every 200ms, and wake at once for a release in
 * this JVM (see {@link io.github.lockable.store.LockStore#awaitRelease}).
 *
 * <pre class="code">
 * try (HeldLock lock = locks.tryLock("report:" + id, Duration.ofMinutes(5), Duration.ofSeconds(2))
 *     .orElseThrow(() -&gt; new ReportBusyException(id))) {
 *     reports.write(id, lock.fencingToken());
 * }
 * </pre>
 */
public interface LockTemplate {

	/**
	 * Tries once to take the lock.
	 * @param key the resource part of the key
	 * @param ttl how long the lock lives unless released or extended
	 * @return the lock, or empty when another holder has it
	 * @throws InvalidLockKeyException if the key breaks the key rule
	 * @throws LockStoreUnavailableException if the store did not answer in time
	 */
	Optional<HeldLock> tryLock(String key, Duration ttl);

	/**
	 * Takes the lock, waiting up to {@code waitTime} for a holder to release it.
	 * @param key the resource part of the key
	 * @param ttl how long the lock lives unless released or extended
	 * @param waitTime how long to wait for a held lock; zero tries once
	 * @return the lock, or empty when it was still held after {@code waitTime}
	 * @throws InvalidLockKeyException if the key breaks the key rule
	 * @throws LockStoreUnavailableException if the store did not answer in time
	 */
	Optional<HeldLock> tryLock(String key, Duration ttl, Duration waitTime);

	/**
	 * Takes the lock like {@link #tryLock(String, Duration, Duration)} and renews it, every
	 * third of its TTL, until it is closed: for work whose length is not known in advance.
	 * When a renewal finds the lock lost (it expired or was taken before the renewal came),
	 * {@link HeldLock#isHeld()} turns {@code false}, the renewal stops and a WARN says so.
	 * @param key the resource part of the key
	 * @param ttl the TTL the lock is taken with and renewed to
	 * @param waitTime how long to wait for a held lock; zero tries once
	 * @return the renewed lock, or empty when it was still held after {@code waitTime}
	 * @throws InvalidLockKeyException if the key breaks the key rule
	 * @throws LockStoreUnavailableException if the store did not answer in time
	 */
	Optional<HeldLock> tryLockRenewing(String key, Duration ttl, Duration waitTime);

	/**
	 * Takes every key or none. The keys are taken one after the other in one global order
	 * (their full names, sorted), so two callers with overlapping sets never wait for each
	 * other in a circle; when one key cannot be had within {@code waitTime}, the keys already
	 * taken are released before this method returns empty.
	 * @param keys the resource parts of the keys; duplicates are taken once
	 * @param ttl how long each key lives unless released or extended
	 * @param waitTime how long to wait, for all keys together
	 * @return the lock on every key, or empty
	 * @throws InvalidLockKeyException if a key breaks the key rule; nothing is taken then
	 * @throws LockStoreUnavailableException if the store did not answer in time; keys already
	 * taken are released
	 */
	Optional<HeldLock> tryLockAll(Collection<String> keys, Duration ttl, Duration waitTime);

	/**
	 * Runs the action under the lock, like a {@code @Lockable} method with policy
	 * {@link ConflictPolicy#CONFLICT}.
	 * @param <T> the action's result type
	 * @param key the resource part of the key
	 * @param ttl how long the lock lives
	 * @param waitTime how long to wait for a held lock
	 * @param action the work
	 * @return the action's result
	 * @throws LockConflictException if the lock was still held after {@code waitTime}
	 */
	@SuppressWarnings("NullAway") // CONFLICT never skips: the result is the action's
	default <T extends @Nullable Object> T execute(String key, Duration ttl, Duration waitTime, Supplier<T> action) {
		return execute(key, ttl, waitTime, ConflictPolicy.CONFLICT, action);
	}

	/**
	 * Runs the action under the lock and applies the policy when the lock is still held
	 * after {@code waitTime}: {@link ConflictPolicy#SKIP} returns {@code null} without
	 * running the action, the others throw a {@link LockConflictException}.
	 * {@link ConflictPolicy#DEFAULT} is {@code lockable.default-conflict-policy}. A store
	 * that does not answer is handled as {@code lockable.store-failure} says.
	 * @param <T> the action's result type
	 * @param key the resource part of the key
	 * @param ttl how long the lock lives
	 * @param waitTime how long to wait for a held lock
	 * @param policy what a held lock means
	 * @param action the work
	 * @return the action's result, or {@code null} when skipped
	 */
	<T extends @Nullable Object> @Nullable T execute(String key, Duration ttl, Duration waitTime, ConflictPolicy policy,
			Supplier<T> action);

}
