package io.github.lockable.store.jdbc;

/**
 * The SQL of every operation on one lock table, built once per store. Every statement
 * reads the database's clock ({@link LockTableDialect#now()}), never the JVM's: a lock is
 * live while {@code expires_at} lies ahead of that clock. A release does not delete its
 * row but moves its expiry to the epoch, so that the row keeps the key's last fencing
 * token.
 *
 * @param dialect the database's dialect
 * @param acquire see {@link LockTableDialect#acquire(String)}
 * @param fencingToken the fencing token of the key's row while it has the token, read after
 * an acquire that does not answer it ({@link LockTableDialect#returnsFencingToken()});
 * parameters key and token
 * @param held the remaining TTL and age in milliseconds of the key's live lock; parameter
 * the key
 * @param release expires the lease's live lock; parameters key and token
 * @param extend sets the remaining TTL of the lease's live lock; parameters TTL in
 * milliseconds, key and token
 * @param owned one row while the lease's lock is live; parameters key and token
 * @param list the live locks under a prefix, by key; parameters the {@code LIKE} pattern
 * (escaped with {@code !}) and the limit
 * @param forceRelease expires the key's live lock, whoever holds it; parameter the key
 * @param check writes nothing to the table, to see that it is there and that the database
 * takes writes: a read-only database, a standby, or a user without the privilege refuses
 * even an update of no row
 */
record LockStatements(LockTableDialect dialect, String acquire, String fencingToken, String held, String release,
		String extend, String owned, String list, String forceRelease, String check) {

	/** The escape character of {@link #list}'s pattern: not a backslash, which MySQL strings escape. */
	static final char LIKE_ESCAPE = '!';

	static LockStatements of(LockTableDialect dialect, String table) {
		String now = dialect.now();
		String live = " WHERE lock_key = ? AND expires_at > " + now;
		String liveOwned = live + " AND token = ?";
		return new LockStatements(dialect, dialect.acquire(table),
				"SELECT fencing_token FROM " + table + " WHERE lock_key = ? AND token = ?",
				"SELECT " + dialect.millisBetween(now, "expires_at") + ", " + dialect.millisBetween("acquired_at", now)
						+ " FROM " + table + live,
				"UPDATE " + table + " SET expires_at = " + dialect.epoch() + liveOwned,
				"UPDATE " + table + " SET expires_at = " + dialect.plusMillis(now) + liveOwned,
				"SELECT 1 FROM " + table + liveOwned,
				"SELECT lock_key, " + dialect.millisBetween(now, "expires_at")
						+ ", holder_instance, holder_pid, holder_method, " + dialect.offsetDateTime("acquired_at") + " FROM "
						+ table
						+ " WHERE lock_key LIKE ? ESCAPE '" + LIKE_ESCAPE + "' AND expires_at > " + now + " ORDER BY "
						+ dialect.binaryOrder("lock_key") + " LIMIT ?",
				"UPDATE " + table + " SET expires_at = " + dialect.epoch() + live,
				"UPDATE " + table + " SET expires_at = expires_at WHERE 1 = 0");
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
