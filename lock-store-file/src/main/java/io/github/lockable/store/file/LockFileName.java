package io.github.lockable.store.file;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Predicate;

/**
 * The file name of a lock key: a single path element that can never leave the lock
 * directory.
 * <p>
 * Every UTF-8 byte outside {@code [A-Za-z0-9._-]} is percent-encoded (a leading dot too,
 * so lock files are never hidden and never look like {@code .} or {@code ..}); the
 * encoding is injective because {@code %} itself is encoded. A name longer than
 * {@value #READABLE_LENGTH} characters keeps a readable prefix and ends in {@code ~} plus
 * the SHA-256 of the whole key, which no short name contains, so every name stays far
 * below the usual 255-byte limit, also as part of a temporary file's name. Other processes,
 * possibly of an older Lockable, find a key's lock by this name: it never changes.
 * <p>
 * On a case-insensitive file system two keys that differ only in case share one lock
 * file: they exclude each other, which is never unsafe.
 *
 * @param base the encoded key, without suffix
 */
record LockFileName(String base) {

	static final int READABLE_LENGTH = 100;

	private static final HexFormat HEX = HexFormat.of().withUpperCase();

	/**
	 * Encodes a key.
	 * @param key any lock key {@code LockRequest} accepts; an empty one would be the hidden
	 * {@code .lock}, and one with an unpaired surrogate would share the name of the key
	 * with a {@code ?} in its place (UTF-8 has no form for it)
	 * @return its file name
	 * @throws IllegalArgumentException if the key is empty or has an unpaired surrogate
	 */
	static LockFileName of(String key) {
		if (key.isEmpty()) {
			throw new IllegalArgumentException("A lock key is never empty");
		}
		if (!StandardCharsets.UTF_8.newEncoder().canEncode(key)) {
			throw new IllegalArgumentException("A lock key has no unpaired surrogate");
		}
		byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
		StringBuilder name = encode(bytes);
		if (name.length() > READABLE_LENGTH) {
			// do not split an escape: %XX is three characters
			int escape = name.lastIndexOf("%", READABLE_LENGTH - 1);
			name.setLength((escape > READABLE_LENGTH - 3) ? escape : READABLE_LENGTH);
			name.append('~').append(sha256(bytes));
		}
		return new LockFileName(name.toString());
	}

	private static StringBuilder encode(byte[] bytes) {
		StringBuilder name = new StringBuilder(bytes.length + 16);
		for (int i = 0; i < bytes.length; i++) {
			int b = bytes[i] & 0xff;
			if (isSafe(b) && !(i == 0 && b == '.')) {
				name.append((char) b);
			}
			else {
				name.append('%').append(HEX.toHexDigits((byte) b));
			}
		}
		return name;
	}

	/**
	 * Which lock file names may be those of a key starting with the prefix, judged by the
	 * name alone: the encoding of a key starts with the encoding of each of its prefixes,
	 * and a hashed name keeps only a readable start of it. The prefix is encoded once.
	 * @param prefix the start of the keys looked for, possibly empty
	 * @return a test of a lock file's name, {@code .lock} included, that is {@code false}
	 * only when no key of that name starts with the prefix
	 */
	static Predicate<String> mayStartWith(String prefix) {
		if (!StandardCharsets.UTF_8.newEncoder().canEncode(prefix)) {
			// ends in half of a pair that a key completes: its bytes are the key's, not the prefix's
			return (fileName) -> true;
		}
		String encoded = encode(prefix.getBytes(StandardCharsets.UTF_8)).toString();
		return (fileName) -> {
			String base = fileName.endsWith(".lock") ? fileName.substring(0, fileName.length() - 5) : fileName;
			int hash = base.indexOf('~');
			if (hash < 0) {
				return base.startsWith(encoded);
			}
			String readable = base.substring(0, hash);
			return readable.startsWith(encoded) || encoded.startsWith(readable);
		};
	}

	private static boolean isSafe(int b) {
		return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '.' || b == '_'
				|| b == '-';
	}

	private static String sha256(byte[] bytes) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

	/** The lock file of this name in a directory: a direct child of it. */
	Path lockFile(Path directory) {
		return directory.resolve(this.base + ".lock");
	}

}
