package io.github.lockable.store.file;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Writes and reads the content of a lock file: one flat JSON object, one field a line.
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
 */
final class LockFileFormat {

	static final int FORMAT = 1;

	private static final String STRING = "\"(?:[^\"\\\\\\x00-\\x1f]++|\\\\[\"\\\\/bfnrt]|\\\\u[0-9A-Fa-f]{4})*+\"";

	/** A field with what comes before it ('{' for the first, ',' for the others) and, for the last, after. */
	private static final Pattern FIELD = Pattern.compile("\\s*+([{,])\\s*+(" + STRING + ")\\s*+:\\s*+(" + STRING
			+ "|-?[0-9]++|null|true|false)(\\s*+}\\s*+\\z)?");

	/** The control characters with an escape of their own, and the letters of their escapes. */
	private static final String CONTROLS = "\b\f\n\r\t";

	private static final String ESCAPED = "bfnrt";

	private static final Pattern ESCAPE = Pattern.compile("\\\\(?:u(....)|(.))");

	private LockFileFormat() {
	}

	static String write(LockMetadata metadata) {
		ProcessIdentity holder = metadata.holder();
		StringJoiner file = new StringJoiner(",", "{", "\n}\n");
		field(file, "format", FORMAT);
		field(file, "job", metadata.job());
		field(file, "pid", holder.pid());
		field(file, "host", holder.host());
		if (metadata.instance() != null || metadata.method() != null) {
			field(file, "instance", metadata.instance());
			field(file, "method", metadata.method());
		}
		field(file, "startedAt", metadata.startedAt().toString());
		field(file, "expiresAt", metadata.expiresAt().toString());
		field(file, "version", metadata.version());
		field(file, "bootId", holder.bootId());
		field(file, "pidNamespace", holder.pidNamespace());
		field(file, "processStartTicks", holder.startTicks());
		field(file, "token", metadata.token());
		field(file, "fencingToken", metadata.fencingToken());
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
	 * @return the metadata
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

}
