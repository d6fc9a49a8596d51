package io.github.lockable.store.file;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Writes and reads the content of a lock file: one small, flat JSON object of strings,
 * integers and nulls.
 *
 * <pre>
 * {
 *   "format": 1,
 *   "job": "lock:daily-report",
 *   "pid": 4312,
 *   "host": "build-01",
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
 * Control characters and characters beyond ASCII are written as JSON escapes, so a file
 * is plain ASCII. Reading ignores unknown fields and refuses anything else that is not
 * exactly such an object: a half-written or foreign file is malformed, never misread. A
 * file without {@code fencingToken}, written before there were fencing tokens, reads as
 * token 0.
 */
final class LockFileFormat {

	static final int FORMAT = 1;

	private LockFileFormat() {
	}

	/*
	 * Written here rather than with Spring Boot's JsonWriter: its API changed between Boot 3
	 * and 4, and one jar serves both lines. The bytes are those JsonWriter wrote: control
	 * characters as \t, \n, ... or upper-case \\u00XX, what is beyond ASCII as lower-case
	 * \\uXXXX (a file is plain ASCII), one field a line.
	 */
	static String write(LockMetadata metadata) {
		ProcessIdentity holder = metadata.holder();
		StringBuilder file = new StringBuilder(512).append('{');
		field(file, "format", FORMAT);
		field(file, "job", metadata.job());
		field(file, "pid", holder.pid());
		field(file, "host", holder.host());
		field(file, "startedAt", metadata.startedAt().toString());
		field(file, "expiresAt", metadata.expiresAt().toString());
		field(file, "version", metadata.version());
		field(file, "bootId", holder.bootId());
		field(file, "pidNamespace", holder.pidNamespace());
		field(file, "processStartTicks", holder.startTicks());
		field(file, "token", metadata.token());
		field(file, "fencingToken", metadata.fencingToken());
		file.setLength(file.length() - 1);
		return file.append("\n}\n").toString();
	}

	private static void field(StringBuilder file, String name, @Nullable Object value) {
		file.append("\n  \"").append(name).append("\": ");
		if (value instanceof String string) {
			file.append('"');
			for (int i = 0; i < string.length(); i++) {
				escape(file, string.charAt(i));
			}
			file.append('"');
		}
		else {
			file.append(value);
		}
		file.append(',');
	}

	private static void escape(StringBuilder file, char c) {
		switch (c) {
			case '"', '\\' -> file.append('\\').append(c);
			case '\b' -> file.append("\\b");
			case '\f' -> file.append("\\f");
			case '\n' -> file.append("\\n");
			case '\r' -> file.append("\\r");
			case '\t' -> file.append("\\t");
			default -> {
				if (Character.isISOControl(c)) {
					file.append(String.format("\\u%04X", (int) c));
				}
				else if (c > 0x7e) {
					file.append(String.format("\\u%04x", (int) c));
				}
				else {
					file.append(c);
				}
			}
		}
	}

	/**
	 * Reads a lock file's content.
	 * @param content the whole file
	 * @return the metadata
	 * @throws MalformedLockFileException if the content is not a complete lock file
	 */
	static LockMetadata read(String content) throws MalformedLockFileException {
		Map<String, Object> fields = new Parser(content).object();
		try {
			ProcessIdentity holder = new ProcessIdentity(value(fields, "host", String.class, true),
					value(fields, "pid", Long.class, true), value(fields, "bootId", String.class, false),
					value(fields, "pidNamespace", String.class, false),
					value(fields, "processStartTicks", Long.class, false));
			Long fencingToken = value(fields, "fencingToken", Long.class, false);
			return new LockMetadata(value(fields, "job", String.class, true),
					value(fields, "token", String.class, true), (fencingToken != null) ? fencingToken : 0, holder,
					Instant.parse(value(fields, "startedAt", String.class, true)),
					Instant.parse(value(fields, "expiresAt", String.class, true)),
					value(fields, "version", String.class, false));
		}
		catch (DateTimeParseException ex) {
			throw new MalformedLockFileException("Lock file has an invalid instant");
		}
	}

	private static <T> @Nullable T value(Map<String, Object> fields, String name, Class<T> type, boolean required)
			throws MalformedLockFileException {
		Object value = fields.get(name);
		if (value == null) {
			if (required) {
				throw new MalformedLockFileException("Lock file lacks \"" + name + "\"");
			}
			return null;
		}
		if (!type.isInstance(value)) {
			throw new MalformedLockFileException("Lock file field \"" + name + "\" has the wrong type");
		}
		return type.cast(value);
	}

	/**
	 * A parser for one flat JSON object whose values are strings, integers, booleans or
	 * null. Messages name positions, never content: the content holds the token.
	 * <p>
	 * Not Spring Boot's: {@code JsonParserFactory} picks Jackson, Gson or
	 * {@code BasicJsonParser} by classpath, and {@code BasicJsonParser} (Boot 3.5 and 4)
	 * reads {@code null} as the string "null", leaves unicode escapes undecoded and
	 * accepts a truncated object or content after it, so it would misread lock files.
	 */
	private static final class Parser {

		private static final Pattern TOKEN = Pattern
			.compile("\"(?:[^\"\\\\\\x00-\\x1f]++|\\\\[^\\x00-\\x1f])*+\"|-?[0-9]+|null|true|false|[{}:,]");

		private final String text;

		private final Matcher matcher;

		private int position;

		Parser(String text) {
			this.text = text;
			this.matcher = TOKEN.matcher(text);
		}

		Map<String, Object> object() throws MalformedLockFileException {
			Map<String, Object> fields = new LinkedHashMap<>();
			if (!next().equals("{")) {
				throw error("expected '{'");
			}
			String token = next();
			while (!token.equals("}")) {
				if (!token.startsWith("\"")) {
					throw error("expected a field name");
				}
				String name = unescape(token);
				if (!next().equals(":")) {
					throw error("expected ':'");
				}
				Object value = value(next());
				if (fields.containsKey(name)) {
					throw error("duplicate field");
				}
				fields.put(name, value);
				token = next();
				if (token.equals(",")) {
					token = next();
				}
				else if (!token.equals("}")) {
					throw error("expected ',' or '}'");
				}
			}
			if (!next().isEmpty()) {
				throw error("content after the object");
			}
			return fields;
		}

		/** The next token after white space, or "" at the end. */
		private String next() throws MalformedLockFileException {
			while (this.position < this.text.length() && " \t\r\n".indexOf(this.text.charAt(this.position)) >= 0) {
				this.position++;
			}
			if (this.position == this.text.length()) {
				return "";
			}
			if (!this.matcher.region(this.position, this.text.length()).lookingAt()) {
				throw error("unexpected character");
			}
			this.position = this.matcher.end();
			return this.matcher.group();
		}

		private @Nullable Object value(String token) throws MalformedLockFileException {
			if (token.startsWith("\"")) {
				return unescape(token);
			}
			if (token.equals("null")) {
				return null;
			}
			if (token.equals("true") || token.equals("false")) {
				return Boolean.valueOf(token);
			}
			if (!token.isEmpty() && (token.charAt(0) == '-' || Character.isDigit(token.charAt(0)))) {
				try {
					return Long.parseLong(token);
				}
				catch (NumberFormatException ex) {
					throw error("invalid integer");
				}
			}
			throw error("unexpected value");
		}

		private String unescape(String token) throws MalformedLockFileException {
			StringBuilder value = new StringBuilder(token.length());
			for (int i = 1; i < token.length() - 1; i++) {
				char c = token.charAt(i);
				if (c != '\\') {
					value.append(c);
					continue;
				}
				char escaped = token.charAt(++i);
				switch (escaped) {
					case '"', '\\', '/' -> value.append(escaped);
					case 'b' -> value.append('\b');
					case 'f' -> value.append('\f');
					case 'n' -> value.append('\n');
					case 'r' -> value.append('\r');
					case 't' -> value.append('\t');
					case 'u' -> {
						if (i + 5 > token.length() - 1 || !token.substring(i + 1, i + 5).matches("[0-9A-Fa-f]{4}")) {
							throw error("invalid escape");
						}
						value.append((char) Integer.parseInt(token.substring(i + 1, i + 5), 16));
						i += 4;
					}
					default -> throw error("invalid escape");
				}
			}
			return value.toString();
		}

		private MalformedLockFileException error(String problem) {
			return new MalformedLockFileException("Malformed lock file: " + problem + " at offset " + this.position);
		}

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
