package io.github.lockable.store;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random owner tokens, version 4 UUIDs, one per acquisition; and the rule every store
 * follows for fencing tokens ({@link #nextFencingToken(long, long)}).
 * <p>
 * {@link UUID#randomUUID()} draws from a shared {@link SecureRandom} and costs about a
 * microsecond under contention, more than the rest of the lock path. Tokens need to be
 * unique, not secret from the store, so each one comes from {@link ThreadLocalRandom},
 * mixed with a per-process salt from {@link SecureRandom} so that two processes whose
 * thread-local generators happen to share a seed still draw different tokens.
 */
public final class LockTokens {

	private static final long SALT_HIGH;

	private static final long SALT_LOW;

	static {
		SecureRandom random = new SecureRandom();
		SALT_HIGH = random.nextLong();
		SALT_LOW = random.nextLong();
	}

	private LockTokens() {
	}

	/**
	 * Draws a new token.
	 * @return a random version 4 UUID in its 36-character form
	 */
	public static String next() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long high = (random.nextLong() ^ SALT_HIGH) & 0xffffffffffff0fffL | 0x0000000000004000L;
		long low = (random.nextLong() ^ SALT_LOW) & 0x3fffffffffffffffL | 0x8000000000000000L;
		return new UUID(high, low).toString();
	}

	/**
	 * The fencing token after {@code last}: the larger of {@code last + 1} and the store's
	 * clock in microseconds since the epoch. A counter that the store lost (a restart
	 * without persistence, a failover to a replica that lagged, a deleted counter file)
	 * starts again above every token issued before it, rather than at 1, provided that the
	 * clocks of the store's servers stay within NTP bounds of each other and that fewer than
	 * a million tokens a second come from one counter (tokens otherwise run ahead of the
	 * clock, by one microsecond per token).
	 * @param last the last token issued from the counter, or 0 when it has none
	 * @param nowMicros the store's clock, in microseconds since the epoch
	 * @return the next token, strictly greater than {@code last}
	 */
	public static long nextFencingToken(long last, long nowMicros) {
		return Math.max(Math.addExact(last, 1), nowMicros);
	}

}
