package io.github.lockable.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The PostgreSQL notification channel of one lock table, on which every store of that
 * table announces its releases ({@code pg_notify(channel, key)}) and which
 * {@link ReleaseNotifications} listens to. A release that notifies is one statement: the
 * owner-checked {@code UPDATE} in a {@code WITH} clause, whose released row, if any, is
 * selected through {@code pg_notify}, so that the notification is sent exactly when a row
 * was released, in the same round trip and the same (auto-)commit.
 */
final class ReleaseChannel {

	/** PostgreSQL's longest identifier, in bytes ({@code NAMEDATALEN - 1}). */
	static final int MAX_LENGTH = 63;

	private static final String SUFFIX = "_released";

	private final String name;

	ReleaseChannel(String table) {
		this.name = name(table);
	}

	/**
	 * {@code <table>_released}, lower case (PostgreSQL folds the unquoted table name, and
	 * channel names are case-sensitive), the schema's dot made an underscore; a name
	 * longer than PostgreSQL's identifiers is cut and told apart by a checksum of the whole.
	 */
	static String name(String table) {
		String plain = table.toLowerCase(Locale.ROOT).replace('.', '_');
		if (plain.length() + SUFFIX.length() <= MAX_LENGTH) {
			return plain + SUFFIX;
		}
		CRC32 crc = new CRC32();
		crc.update(plain.getBytes(StandardCharsets.US_ASCII));
		String checksum = String.format("%08x", crc.getValue());
		return plain.substring(0, MAX_LENGTH - SUFFIX.length() - checksum.length() - 1) + "_" + checksum + SUFFIX;
	}

	String name() {
		return this.name;
	}

	/** The release, with the parameters of {@link LockStatements#release()}, answering a row per released lock. */
	String release(LockStatements sql) {
		return notifying(sql.release());
	}

	/** The force-release, with the parameters of {@link LockStatements#forceRelease()}, as {@link #release}. */
	String forceRelease(LockStatements sql) {
		return notifying(sql.forceRelease());
	}

	private String notifying(String update) {
		return "WITH released AS (" + update + " RETURNING lock_key) SELECT pg_notify('" + this.name
				+ "', lock_key) FROM released";
	}

	/** The name is plain lower-case letters, digits and underscores: quoted, it is taken as it is. */
	String listen() {
		return "LISTEN \"" + this.name + "\"";
	}

	String unlisten() {
		return "UNLISTEN \"" + this.name + "\"";
	}

}
