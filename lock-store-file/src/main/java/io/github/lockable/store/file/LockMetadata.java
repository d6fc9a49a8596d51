package io.github.lockable.store.file;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * What a lock file says: who holds the lock, since when and until when. Metadata only:
 * never arguments, user data, URLs or credentials. The file is one flat JSON object, one
 * field a line:
 *
 * <pre>
 * {
 *   "format": 1,
 *   "job": "lock:daily-report",
 *   "pid": 4312,
 *   "host": "build-01",
 *   "instance": "reports@build-01",
 *   "method": "DailyReport.run()",
 *   "startedAt": "2026-07-27T23:00:00.120Z",
 *   "expiresAt": "2026-07-27T23:30:00.120Z",
 *   "version": "1.4.2",
 *   "bootId": "f5d0c3a6-c428-46de-b60f-11f94f17c408",
 *   "pidNamespace": "pid:[4026531836]",
 *   "processStartTicks": 81234567,
 *   "token": "3f0c...-...",
 *   "fencingToken": 17
 * }
 * </pre>
 *
 * Written and read here, not with Boot's {@code JsonWriter} (its API changed in Boot 4, and
 * one jar serves both lines) or {@code JsonParserFactory} (it reads by class path, and its
 * {@code BasicJsonParser} misreads lock files, see the tests). The bytes are plain ASCII:
 * control characters as {@code \t}, {@code \n} or upper-case hexadecimal escapes, what is
 * beyond ASCII as lower-case ones. Reading ignores unknown fields and refuses anything else
 * that is not exactly such an object, so a half-written or foreign file is malformed, never
 * misread. A file without {@code fencingToken}, from before there were fencing tokens,
 * reads as token 0. {@code instance} and {@code method} are written only when the request
 * named its holder, and a file without them, as from before there were holders, reads as
 * an unknown holder.
 *
 * @param job the lock key
 * @param token the owner's token, compared on release and extend; a secret of the holder
 * that {@link #toString()} leaves out
 * @param fencingToken the fencing token of this acquisition, or 0 in a lock file written
 * before there were fencing tokens
 * @param holder the process that holds the lock
 * @param startedAt when the lock was acquired
 * @param expiresAt when the lock becomes stale unless extended
 * @param version the holder's application version, if known
 * @param instance the holder's application instance ({@code LockHolder.instance()}), if
 * the request named it; {@code null} in a lock file written before there were holders
 * @param method the caller that holds the lock ({@code LockHolder.method()}), if the
 * request named it
 */
record LockMetadata(String job, String token, long fencingToken, ProcessIdentity holder, Instant startedAt, Instant expiresAt,
		@Nullable String version, @Nullable String instance, @Nullable String method)
		implements LockDirectory.LockFileState {

	private static final int FORMAT = 1;

	private static final String STRING = "\"(?:[^\"\\\\\\x00-\\x1f]++|\\\\[\"\\\\/bfnrt]|\\\\u[0-9A-Fa-f]{4})*+\"";

	/** A field with what comes before it ('{' for the first, ',' for the others) and, for the last, after. */
	private static final Pattern FIELD = Pattern.compile("\\s*+([{,])\\s*+(" + STRING + ")\\s*+:\\s*+(" + STRING
			+ "|-?[0-9]++|null|true|false)(\\s*+}\\s*+\\z)?");

	/** The control characters with an escape of their own, and the letters of their escapes. */
	private static final String CONTROLS = "\b\f\n\r\t";

	private static final String ESCAPED = "bfnrt";

	private static final Pattern ESCAPE = Pattern.compile("\\\\(?:u(....)|(.))");

	boolean isExpired(Instant now) {
		return !now.isBefore(this.expiresAt);
	}

	boolean isOwnedBy(String token) {
		return MessageDigest.isEqual(this.token.getBytes(StandardCharsets.UTF_8),
				token.getBytes(StandardCharsets.UTF_8));
	}

	Duration remainingTtl(Instant now) {
		return Duration.between(now, this.expiresAt);
	}

	Duration age(Instant now) {
		Duration age = Duration.between(this.startedAt, now);
		return age.isNegative() ? Duration.ZERO : age;
	}

	LockMetadata withExpiresAt(Instant expiresAt) {
		return new LockMetadata(this.job, this.token, this.fencingToken, this.holder, this.startedAt, expiresAt, this.version,
				this.instance, this.method);
	}

	/** The content of the lock file. */
	String write() {
		StringJoiner file = new StringJoiner(",", "{", "\n}\n");
		field(file, "format", FORMAT);
		field(file, "job", this.job);
		field(file, "pid", this.holder.pid());
		field(file, "host", this.holder.host());
		if (this.instance != null || this.method != null) {
			field(file, "instance", this.instance);
			field(file, "method", this.method);
		}
		field(file, "startedAt", this.startedAt.toString());
		field(file, "expiresAt", this.expiresAt.toString());
		field(file, "version", this.version);
		field(file, "bootId", this.holder.bootId());
		field(file, "pidNamespace", this.holder.pidNamespace());
		field(file, "processStartTicks", this.holder.startTicks());
		field(file, "token", this.token);
		field(file, "fencingToken", this.fencingToken);
		return file.toString();
	}

	private static void field(StringJoiner file, String name, @Nullable Object value) {
		if (!(value instanceof String string)) {
			file.add("\n  \"" + name + "\": " + value);
			return;
		}
		StringBuilder quoted = new StringBuilder("\n  \"").append(name).append("\": \"");
		for (char c : string.toCharArray()) {
			int control = CONTROLS.indexOf(c);
			quoted.append((c == '"' || c == '\\') ? "\\" + c : (control >= 0) ? "\\" + ESCAPED.charAt(control)
					: Character.isISOControl(c) ? String.format("\\u%04X", (int) c)
					: (c > 0x7e) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
		}
		file.add(quoted.append('"'));
	}

	/**
	 * Reads a lock file's content.
	 * @param content the whole file
	 * @throws MalformedLockFileException if the content is not a complete lock file
	 */
	static LockMetadata read(String content) throws MalformedLockFileException {
		Map<String, @Nullable Object> fields = new HashMap<>();
		Matcher field = FIELD.matcher(content);
		int position = 0;
		do {
			// positions, never content: the content holds the token
			if (!field.region(position, content.length()).lookingAt() || field.group(1).equals("{") != (position == 0)
					|| fields.containsKey(unquote(field.group(2)))) {
				throw new MalformedLockFileException("Malformed lock file at offset " + position);
			}
			fields.put(unquote(field.group(2)), value(field.group(3)));
			position = field.end();
		}
		while (field.group(4) == null);
		try {
			Long fencingToken = value(fields, "fencingToken", Long.class, false);
			return new LockMetadata(value(fields, "job", String.class, true), value(fields, "token", String.class, true),
					(fencingToken != null) ? fencingToken : 0,
					new ProcessIdentity(value(fields, "host", String.class, true), value(fields, "pid", Long.class, true),
							value(fields, "bootId", String.class, false), value(fields, "pidNamespace", String.class, false),
							value(fields, "processStartTicks", Long.class, false)),
					Instant.parse(value(fields, "startedAt", String.class, true)),
					Instant.parse(value(fields, "expiresAt", String.class, true)),
					value(fields, "version", String.class, false), value(fields, "instance", String.class, false),
					value(fields, "method", String.class, false));
		}
		catch (DateTimeParseException ex) {
			throw new MalformedLockFileException("Lock file has an invalid instant");
		}
	}

	private static @Nullable Object value(String token) throws MalformedLockFileException {
		try {
			return switch (token.charAt(0)) {
				case '"' -> unquote(token);
				case 'n' -> null;
				case 't', 'f' -> Boolean.valueOf(token);
				default -> Long.parseLong(token);
			};
		}
		catch (NumberFormatException ex) {
			throw new MalformedLockFileException("Lock file has an integer out of range");
		}
	}

	private static String unquote(String token) {
		return ESCAPE.matcher(token.substring(1, token.length() - 1)).replaceAll((escape) -> {
			if (escape.group(1) != null) {
				return Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(escape.group(1), 16)));
			}
			char c = escape.group(2).charAt(0);
			int control = ESCAPED.indexOf(c);
			return Matcher.quoteReplacement(String.valueOf((control >= 0) ? CONTROLS.charAt(control) : c));
		});
	}

	@SuppressWarnings("unchecked")
	private static <T> @Nullable T value(Map<String, @Nullable Object> fields, String name, Class<T> type, boolean required)
			throws MalformedLockFileException {
		Object value = fields.get(name);
		if ((value == null && required) || (value != null && !type.isInstance(value))) {
			throw new MalformedLockFileException("Lock file field \"" + name + "\" is missing or of the wrong type");
		}
		return (T) value;
	}

	/**
	 * A lock file whose content is not a complete lock file: half written, damaged or
	 * foreign.
	 */
	static final class MalformedLockFileException extends Exception {

		MalformedLockFileException(String message) {
			super(message, null, false, false);
		}

	}

	@Override
	public String toString() {
		return "LockMetadata[job=" + this.job + ", fencingToken=" + this.fencingToken + ", holder=" + this.holder + ", startedAt=" + this.startedAt
				+ ", expiresAt=" + this.expiresAt + ", version=" + this.version + ", instance=" + this.instance + ", method="
				+ this.method + "]";
	}

}
