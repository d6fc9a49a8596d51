package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockHolder;

/**
 * The value at a lock key: the random token alone, or, when the request names its holder,
 * {@code <token> <acquiredAtMillis> <instance>\t<pid>\t<method>}, each holder field with
 * {@code %}, tab, CR and LF percent-escaped. The lease's token is the whole value, so the
 * release's, extend's and fence's compare stay exact and the acquire stays one command.
 * A value without a space (an older version, another client) lists with no holder. The
 * token part is never listed.
 */
final class LockValues {

	/** Holders seen, encoded once: a {@code @Lockable} method passes the same holder each call. */
	private static final Map<LockHolder, byte[]> encoded = new ConcurrentHashMap<>();

	private static final int MAX_CACHED = 4096;

	private LockValues() {
	}

	/**
	 * The value an acquire writes.
	 * @param token the random token, ASCII without spaces
	 * @param holder the holder, or {@code null}
	 * @param acquiredAtMillis the JVM's clock at the acquire
	 * @return the value's bytes
	 */
	static byte[] value(String token, @Nullable LockHolder holder, long acquiredAtMillis) {
		if (holder == null) {
			return token.getBytes(StandardCharsets.US_ASCII);
		}
		byte[] holderBytes = holderBytes(holder);
		byte[] millis = RedisLockStore.encode(acquiredAtMillis);
		byte[] value = new byte[token.length() + 1 + millis.length + 1 + holderBytes.length];
		// ASCII: one byte a char, written in place
		for (int i = 0; i < token.length(); i++) {
			value[i] = (byte) token.charAt(i);
		}
		int at = token.length();
		value[at++] = ' ';
		System.arraycopy(millis, 0, value, at, millis.length);
		at += millis.length;
		value[at++] = ' ';
		System.arraycopy(holderBytes, 0, value, at, holderBytes.length);
		return value;
	}

	private static byte[] holderBytes(LockHolder holder) {
		byte[] bytes = encoded.get(holder);
		if (bytes == null) {
			bytes = (escape(holder.instance()) + '\t' + holder.pid() + '\t' + escape(holder.method()))
				.getBytes(StandardCharsets.UTF_8);
			if (encoded.size() < MAX_CACHED) {
				encoded.put(holder, bytes);
			}
		}
		return bytes;
	}

	/**
	 * The holder a value names.
	 * @param value the value at a lock key
	 * @return the holder and when it acquired, or {@code null} for a value without them
	 */
	static @Nullable Metadata metadata(byte[] value) {
		String text = new String(value, StandardCharsets.UTF_8);
		int first = text.indexOf(' ');
		int second = (first < 0) ? -1 : text.indexOf(' ', first + 1);
		if (second < 0) {
			return null;
		}
		String[] fields = text.substring(second + 1).split("\t", -1);
		if (fields.length != 3) {
			return null;
		}
		try {
			Instant acquiredAt = Instant.ofEpochMilli(Long.parseLong(text, first + 1, second, 10));
			return new Metadata(new LockHolder(unescape(fields[0]), Long.parseLong(fields[1]), unescape(fields[2])),
					acquiredAt);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static String escape(String field) {
		StringBuilder escaped = null;
		for (int i = 0; i < field.length(); i++) {
			char c = field.charAt(i);
			if (c == '%' || c == '\t' || c == '\r' || c == '\n') {
				if (escaped == null) {
					escaped = new StringBuilder(field.length() + 8).append(field, 0, i);
				}
				escaped.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
			}
			else if (escaped != null) {
				escaped.append(c);
			}
		}
		return (escaped != null) ? escaped.toString() : field;
	}

	private static String unescape(String field) {
		if (field.indexOf('%') < 0) {
			return field;
		}
		StringBuilder plain = new StringBuilder(field.length());
		for (int i = 0; i < field.length(); i++) {
			char c = field.charAt(i);
			if (c == '%' && i + 2 < field.length()) {
				plain.append((char) Integer.parseInt(field, i + 1, i + 3, 16));
				i += 2;
			}
			else {
				plain.append(c);
			}
		}
		return plain.toString();
	}

	/**
	 * What a value tells of its holder.
	 * @param holder the holder
	 * @param acquiredAt when it acquired, by its JVM's clock
	 */
	record Metadata(LockHolder holder, Instant acquiredAt) {
	}

}
