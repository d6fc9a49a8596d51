package io.github.lockable.store.jdbc;

import static io.github.lockable.store.jdbc.LockTableDialect.EPOCH;
import static io.github.lockable.store.jdbc.LockTableDialect.NOW;

/**
 * The SQL of every operation on one lock table, built once per store. Every statement
 * reads the database's clock ({@link LockTableDialect#NOW}), never the JVM's: a lock is
 * live while {@code expires_at > CURRENT_TIMESTAMP}. A release does not delete its row but
 * moves its expiry to the epoch, so that the row keeps the key's last fencing token.
 *
 * @param dialect the database's dialect
 * @param acquire see {@link LockTableDialect#acquire(String)}
 * @param held the remaining TTL and age in milliseconds of the key's live lock; parameter
 * the key
 * @param release expires the lease's live lock; parameters key and token
 * @param extend sets the remaining TTL of the lease's live lock; parameters TTL in
 * milliseconds, key and token
 * @param owned one row while the lease's lock is live; parameters key and token
 * @param list the live locks under a prefix, by key; parameters the {@code LIKE} pattern
 * (escaped with {@code !}) and the limit
 * @param forceRelease expires the key's live lock, whoever holds it; parameter the key
 * @param check reads nothing from the table, to see that it is there
 */
record LockStatements(LockTableDialect dialect, String acquire, String held, String release, String extend,
		String owned, String list, String forceRelease, String check) {

	/** The escape character of {@link #list}'s pattern: not a backslash, which MySQL strings escape. */
	static final char LIKE_ESCAPE = '!';

	static LockStatements of(LockTableDialect dialect, String table) {
		String live = " WHERE lock_key = ? AND expires_at > " + NOW;
		String liveOwned = live + " AND token = ?";
		return new LockStatements(dialect, dialect.acquire(table),
				"SELECT " + dialect.millisBetween(NOW, "expires_at") + ", " + dialect.millisBetween("acquired_at", NOW)
						+ " FROM " + table + live,
				"UPDATE " + table + " SET expires_at = " + EPOCH + liveOwned,
				"UPDATE " + table + " SET expires_at = " + dialect.plusMillis(NOW) + liveOwned,
				"SELECT 1 FROM " + table + liveOwned,
				"SELECT lock_key, " + dialect.millisBetween(NOW, "expires_at")
						+ ", holder_instance, holder_pid, holder_method, acquired_at FROM " + table
						+ " WHERE lock_key LIKE ? ESCAPE '" + LIKE_ESCAPE + "' AND expires_at > " + NOW + " ORDER BY "
						+ dialect.binaryOrder("lock_key") + " LIMIT ?",
				"UPDATE " + table + " SET expires_at = " + EPOCH + live,
				"SELECT 1 FROM " + table + " WHERE 1 = 0");
	}

	/** A {@code LIKE} pattern of every key that starts with the prefix. */
	static String startsWith(String prefix) {
		StringBuilder pattern = new StringBuilder(prefix.length() + 1);
		for (int i = 0; i < prefix.length(); i++) {
			char c = prefix.charAt(i);
			if (c == '%' || c == '_' || c == LIKE_ESCAPE) {
				pattern.append(LIKE_ESCAPE);
			}
			pattern.append(c);
		}
		return pattern.append('%').toString();
	}

}
