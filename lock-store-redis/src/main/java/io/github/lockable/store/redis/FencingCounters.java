package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.lettuce.core.cluster.SlotHash;
import org.slf4j.LoggerFactory;

/**
 * Names the fencing counter of a lock key: {@code lockable:fence:{<tag>}}, one per Redis
 * Cluster slot, where {@code <tag>} is the shortest string of {@code [0-9A-Za-z]} (first
 * in the order of {@link #candidate(int)}) that hashes to that slot. The counter is in
 * its lock's slot, so the acquire script may touch both on a cluster, and there are never
 * more than {@value SlotHash#SLOT_COUNT} counters however many lock keys exist. A
 * standalone server uses the same names, so they stay valid after a move to a cluster.
 */
final class FencingCounters {

	private static final byte[] PREFIX = "lockable:fence:{".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		.getBytes(StandardCharsets.US_ASCII);

	private static final int MAX_TAG_LENGTH = 3;

	private static final byte[] MARKER_SUFFIX = ":delay".getBytes(StandardCharsets.US_ASCII);

	private FencingCounters() {
	}

	/**
	 * The counter key of a lock key's slot.
	 * @param lockKey the lock key, whose hash tag, if any, decides its slot
	 * @return the counter key, a new array
	 */
	static byte[] counterKey(byte[] lockKey) {
		return counterKeyOfSlot(SlotHash.getSlot(lockKey));
	}

	/**
	 * The lock-delay marker of a lock key's slot ({@link LockScript#DELAYED_ACQUIRE}): its
	 * counter key followed by {@code :delay}, in the same slot and under the same ACL key
	 * pattern {@code lockable:fence:*}.
	 * @param lockKey the lock key
	 * @return the marker key, a new array
	 */
	static byte[] markerKey(byte[] lockKey) {
		byte[] counter = counterKey(lockKey);
		byte[] marker = Arrays.copyOf(counter, counter.length + MARKER_SUFFIX.length);
		System.arraycopy(MARKER_SUFFIX, 0, marker, counter.length, MARKER_SUFFIX.length);
		return marker;
	}

	static byte[] counterKeyOfSlot(int slot) {
		byte[] tags = Tags.TABLE;
		int offset = slot * MAX_TAG_LENGTH;
		int length = 0;
		while (length < MAX_TAG_LENGTH && tags[offset + length] != 0) {
			length++;
		}
		byte[] key = new byte[PREFIX.length + length + 1];
		System.arraycopy(PREFIX, 0, key, 0, PREFIX.length);
		System.arraycopy(tags, offset, key, PREFIX.length, length);
		key[key.length - 1] = '}';
		return key;
	}

	/**
	 * The n-th candidate tag: every string of one character of {@link #ALPHABET}, then of
	 * two, and so on, like counting in base 62 with leading zeros kept.
	 */
	static byte[] candidate(int n) {
		int length = 1;
		int first = 0;
		int count = ALPHABET.length;
		while (n - first >= count) {
			first += count;
			count *= ALPHABET.length;
			length++;
		}
		byte[] tag = new byte[length];
		int rest = n - first;
		for (int i = length - 1; i >= 0; i--) {
			tag[i] = ALPHABET[rest % ALPHABET.length];
			rest /= ALPHABET.length;
		}
		return tag;
	}

	/**
	 * The tag of every slot, {@value #MAX_TAG_LENGTH} bytes each, zero-padded (64 KiB
	 * instead of 16,384 arrays). Built on first use, in a few milliseconds.
	 */
	private static final class Tags {

		static final byte[] TABLE = build();

		private static byte[] build() {
			long start = System.nanoTime();
			byte[] table = new byte[SlotHash.SLOT_COUNT * MAX_TAG_LENGTH];
			boolean[] found = new boolean[SlotHash.SLOT_COUNT];
			int missing = SlotHash.SLOT_COUNT;
			for (int n = 0; missing > 0; n++) {
				byte[] tag = candidate(n);
				if (tag.length > MAX_TAG_LENGTH) {
					throw new IllegalStateException(missing + " Redis Cluster slots have no tag of at most "
							+ MAX_TAG_LENGTH + " characters");
				}
				int slot = SlotHash.getSlot(tag);
				if (!found[slot]) {
					found[slot] = true;
					missing--;
					System.arraycopy(tag, 0, table, slot * MAX_TAG_LENGTH, tag.length);
				}
			}
			LoggerFactory.getLogger(FencingCounters.class)
				.debug("Named the fencing counters of {} slots in {}ms", SlotHash.SLOT_COUNT,
						(System.nanoTime() - start) / 1_000_000);
			return table;
		}

	}

}
