package io.github.lockable;

import java.time.Duration;
import java.util.List;

/**
 * A lock taken in code, on one key or on several taken together; obtained from a
 * {@link LockTemplate}, or inside a {@link Lockable @Lockable} method from
 * {@link LockContext#current()}.
 * <p>
 * Ownership is the lock's random token, never the thread: a held lock may be extended and
 * closed from any thread. Use it with try-with-resources; {@link #close()} never throws,
 * so it never masks the exception of the work it guarded.
 */
public interface HeldLock extends AutoCloseable {

	/**
	 * The keys this lock holds, as given: resource parts, without the key prefix.
	 * @return the keys, in the order they were given
	 */
	List<String> keys();

	/**
	 * The fencing token of the only key: a number strictly greater than every token issued
	 * before for that key. Pass it to the storage the guarded work writes, which refuses a
	 * write with a token lower than one it has seen (a holder that outlived its TTL).
	 * @return the fencing token
	 * @throws IllegalStateException if this lock holds several keys
	 */
	long fencingToken();

	/**
	 * The fencing token of one of the keys.
	 * @param key one of {@link #keys()}
	 * @return the fencing token of that key
	 * @throws IllegalArgumentException if this lock does not hold the key
	 */
	long fencingToken(String key);

	/**
	 * Whether this holder may still count on the lock, answered on this JVM without asking
	 * the store. {@code false} once closed; once an extend or a renewal found it lost
	 * (expired in the store, deleted, force-released, or another holder's); and once its TTL
	 * ran out on this JVM's monotonic clock, counted from before the acquire (or the last
	 * successful extend or renewal) was sent, even if the store still keeps it. {@code true}
	 * does not prove that the store still holds it: a lock deleted, evicted or
	 * force-released in the store reads {@code true} until the next extend or renewal finds
	 * it gone. Guard writes that must not overlap with the {@link #fencingToken()}.
	 * @return whether the lock is held, as far as this JVM knows
	 */
	boolean isHeld();

	/**
	 * Sets the remaining TTL of every key, if this holder still owns them.
	 * @param ttl the new remaining TTL, at least one millisecond
	 * @return {@code true} if extended; {@code false} if the lock was closed or lost, after
	 * which {@link #isHeld()} is {@code false}
	 * @throws LockStoreUnavailableException if the store did not answer
	 */
	boolean extend(Duration ttl);

	/**
	 * Releases every key, the first time only. Never throws: a store that does not answer
	 * is logged, and the lock then ends with its TTL.
	 */
	@Override
	void close();

}
