package io.github.lockable.store.file;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.lang.Nullable;

/**
 * Writes and reads the content of a lock file: one small, flat JSON object of strings,
 * integers and nulls, written by hand because the main code has no JSON library.
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
 * Non-ASCII and control characters are written as JSON unicode escapes, so a file is
 * plain ASCII. Reading ignores unknown fields and refuses anything else that is not
 * exactly such an object: a half-written or foreign file is malformed, never misread. A
 * file without {@code fencingToken}, written before there were fencing tokens, reads as
 * token 0.
 */
final class LockFileFormat {

	static final int FORMAT = 1;

	private LockFileFormat() {
	}

	static String write(LockMetadata metadata) {
		ProcessIdentity holder = metadata.holder();
		StringBuilder json = new StringBuilder(512).append('{');
		field(json, "format", FORMAT, true);
		field(json, "job", metadata.job(), false);
		field(json, "pid", holder.pid(), false);
		field(json, "host", holder.host(), false);
		field(json, "startedAt", metadata.startedAt().toString(), false);
		field(json, "expiresAt", metadata.expiresAt().toString(), false);
		field(json, "version", metadata.version(), false);
		field(json, "bootId", holder.bootId(), false);
		field(json, "pidNamespace", holder.pidNamespace(), false);
		field(json, "processStartTicks", holder.startTicks(), false);
		field(json, "token", metadata.token(), false);
		field(json, "fencingToken", metadata.fencingToken(), false);
		return json.append("\n}\n").toString();
	}

	private static void field(StringBuilder json, String name, @Nullable Object value, boolean first) {
		json.append(first ? "\n  \"" : ",\n  \"").append(name).append("\": ");
		if (value == null) {
			json.append("null");
		}
		else if (value instanceof Number) {
			json.append(value);
		}
		else {
			quote(json, value.toString());
		}
	}

	private static void quote(StringBuilder json, String value) {
		json.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '"' || c == '\\') {
				json.append('\\').append(c);
			}
			else if (c < 0x20 || c > 0x7e) {
				json.append(String.format("\\u%04x", (int) c));
			}
			else {
				json.append(c);
			}
		}
		json.append('"');
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
			ProcessIdentity holder = new ProcessIdentity(string(fields, "host", true), number(fields, "pid", true),
					string(fields, "bootId", false), string(fields, "pidNamespace", false),
					number(fields, "processStartTicks", false));
			Long fencingToken = number(fields, "fencingToken", false);
			return new LockMetadata(string(fields, "job", true), string(fields, "token", true),
					(fencingToken != null) ? fencingToken : 0, holder,
					Instant.parse(string(fields, "startedAt", true)), Instant.parse(string(fields, "expiresAt", true)),
					string(fields, "version", false));
		}
		catch (DateTimeParseException ex) {
			throw new MalformedLockFileException("Lock file has an invalid instant");
		}
	}

	@Nullable
	private static String string(Map<String, Object> fields, String name, boolean required)
			throws MalformedLockFileException {
		return value(fields, name, String.class, required);
	}

	@Nullable
	private static Long number(Map<String, Object> fields, String name, boolean required)
			throws MalformedLockFileException {
		return value(fields, name, Long.class, required);
	}

	@Nullable
	private static <T> T value(Map<String, Object> fields, String name, Class<T> type, boolean required)
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
	 */
	private static final class Parser {

		private final String text;

		private int position;

		Parser(String text) {
			this.text = text;
		}

		Map<String, Object> object() throws MalformedLockFileException {
			Map<String, Object> fields = new LinkedHashMap<>();
			expect('{');
			if (peek() == '}') {
				this.position++;
			}
			else {
				do {
					String name = string();
					expect(':');
					Object value = value();
					if (fields.containsKey(name)) {
						throw error("duplicate field");
					}
					fields.put(name, value);
				}
				while (consume(','));
				expect('}');
			}
			if (peek() != 0) {
				throw error("content after the object");
			}
			return fields;
		}

		@Nullable
		private Object value() throws MalformedLockFileException {
			char c = peek();
			if (c == '"') {
				return string();
			}
			if (c == '-' || (c >= '0' && c <= '9')) {
				return number();
			}
			for (String literal : new String[] { "null", "true", "false" }) {
				if (this.text.startsWith(literal, this.position)) {
					this.position += literal.length();
					return literal.equals("null") ? null : Boolean.valueOf(literal);
				}
			}
			throw error("unexpected value");
		}

		private Long number() throws MalformedLockFileException {
			int start = this.position;
			if (this.text.charAt(this.position) == '-') {
				this.position++;
			}
			while (this.position < this.text.length() && this.text.charAt(this.position) >= '0'
					&& this.text.charAt(this.position) <= '9') {
				this.position++;
			}
			try {
				return Long.parseLong(this.text.substring(start, this.position));
			}
			catch (NumberFormatException ex) {
				throw error("invalid integer");
			}
		}

		private String string() throws MalformedLockFileException {
			expect('"');
			StringBuilder value = new StringBuilder();
			while (true) {
				if (this.position >= this.text.length()) {
					throw error("unterminated string");
				}
				char c = this.text.charAt(this.position++);
				if (c == '"') {
					return value.toString();
				}
				if (c < 0x20) {
					throw error("control character in string");
				}
				if (c != '\\') {
					value.append(c);
					continue;
				}
				if (this.position >= this.text.length()) {
					throw error("unterminated escape");
				}
				char escaped = this.text.charAt(this.position++);
				switch (escaped) {
					case '"', '\\', '/' -> value.append(escaped);
					case 'b' -> value.append('\b');
					case 'f' -> value.append('\f');
					case 'n' -> value.append('\n');
					case 'r' -> value.append('\r');
					case 't' -> value.append('\t');
					case 'u' -> value.append(unicodeEscape());
					default -> throw error("invalid escape");
				}
			}
		}

		private char unicodeEscape() throws MalformedLockFileException {
			if (this.position + 4 > this.text.length()) {
				throw error("unterminated escape");
			}
			try {
				char c = (char) Integer.parseInt(this.text.substring(this.position, this.position + 4), 16);
				this.position += 4;
				return c;
			}
			catch (NumberFormatException ex) {
				throw error("invalid escape");
			}
		}

		private boolean consume(char expected) {
			if (peek() == expected) {
				this.position++;
				return true;
			}
			return false;
		}

		private void expect(char expected) throws MalformedLockFileException {
			if (!consume(expected)) {
				throw error("expected '" + expected + "'");
			}
		}

		/**
		 * Skips white space and returns the next character, or 0 at the end.
		 */
		private char peek() {
			while (this.position < this.text.length() && isWhitespace(this.text.charAt(this.position))) {
				this.position++;
			}
			return (this.position < this.text.length()) ? this.text.charAt(this.position) : 0;
		}

		private static boolean isWhitespace(char c) {
			return c == ' ' || c == '\n' || c == '\r' || c == '\t';
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
