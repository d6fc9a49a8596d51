package io.github.lockable.core;

import org.jspecify.annotations.Nullable;

/**
 * The key rules: a full key is {@code <prefix>:<part>}, and a part is 1 to
 * {@code maxLength} characters of {@code A-Z a-z 0-9 : . _ -}. Checked by hand, not by a
 * regular expression: it runs on every call.
 */
final class LockKeys {

	/** The allowed characters, as people read them in error messages. */
	public static final String ALLOWED = "A-Z a-z 0-9 : . _ -";

	private final String prefix;

	private final int maxLength;

	/**
	 * Creates the rules.
	 * @param prefix namespace before every key; itself obeys the character rule
	 * @param maxLength longest part accepted
	 */
	public LockKeys(String prefix, int maxLength) {
		if (maxLength < 1) {
			throw new IllegalArgumentException("max key length must be at least 1, was " + maxLength);
		}
		String problem = problem(prefix, Integer.MAX_VALUE);
		if (problem != null) {
			throw new IllegalArgumentException("key prefix " + problem);
		}
		this.prefix = prefix + ":";
		this.maxLength = maxLength;
	}

	/**
	 * The start of every full key, for listing the locks of this application.
	 * @return {@code <prefix>:}
	 */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * The full key for a part that obeys the rules.
	 * @param part the resource part of the key
	 * @return {@code <prefix>:<part>}
	 * @throws IllegalArgumentException if the part breaks the rules; the message does not
	 * repeat the part
	 */
	public String fullKey(String part) {
		String problem = problem(part);
		if (problem != null) {
			throw new IllegalArgumentException("key " + problem);
		}
		return this.prefix.concat(part);
	}

	/**
	 * The full key for a part already checked with {@link #problem(String)}.
	 * @param checkedPart a part for which {@link #problem(String)} returned {@code null}
	 * @return {@code <prefix>:<part>}
	 */
	public String withPrefix(String checkedPart) {
		return this.prefix.concat(checkedPart);
	}

	/**
	 * The resource part of a full key made by this instance.
	 * @param fullKey {@code <prefix>:<part>}
	 * @return the part
	 */
	public String withoutPrefix(String fullKey) {
		return fullKey.startsWith(this.prefix) ? fullKey.substring(this.prefix.length()) : fullKey;
	}

	/**
	 * What is wrong with a key part, without repeating it.
	 * @param part the resource part of a key, possibly {@code null}
	 * @return {@code null} when it obeys the rules, otherwise a phrase such as "is 230
	 * characters long, more than the 200 allowed"
	 */
	public @Nullable String problem(@Nullable String part) {
		return problem(part, this.maxLength);
	}

	static @Nullable String problem(@Nullable String part, int maxLength) {
		if (part == null) {
			return "is null";
		}
		int length = part.length();
		if (length == 0) {
			return "is empty";
		}
		if (length > maxLength) {
			return "is " + length + " characters long, more than the " + maxLength + " allowed";
		}
		for (int i = 0; i < length; i++) {
			if (!isAllowed(part.charAt(i))) {
				return "has a character outside " + ALLOWED;
			}
		}
		return null;
	}

	private static boolean isAllowed(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' || c == '.'
				|| c == '_' || c == '-';
	}

}
