package io.github.lockable.store.jdbc;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * What differs between databases in the statements of {@link LockStatements}: the
 * database's clock in arithmetic, the order of keys, and the one statement that takes a
 * free or expired lock. Everything else is standard SQL.
 */
enum LockTableDialect {

	/**
	 * {@code INSERT ... ON CONFLICT ... DO UPDATE ... WHERE} takes an expired row over: the
	 * row is locked and the {@code WHERE} evaluated against its latest version, so of two
	 * callers exactly one updates it, under the default {@code READ COMMITTED} isolation.
	 */
	POSTGRESQL("PostgreSQL") {

		@Override
		String plusMillis(String timestamp) {
			return timestamp + " + CAST(? AS BIGINT) * INTERVAL '1 millisecond'";
		}

		@Override
		String millisBetween(String from, String to) {
			return "CAST(EXTRACT(EPOCH FROM (" + to + " - " + from + ")) * 1000 AS BIGINT)";
		}

		@Override
		String micros() {
			return "CAST(EXTRACT(EPOCH FROM " + NOW + ") * 1000000 AS BIGINT)";
		}

		@Override
		String binaryOrder(String column) {
			return column + " COLLATE \"C\"";
		}

		@Override
		String acquire(String table) {
			return "INSERT INTO " + table + " AS t (" + COLUMNS + ") VALUES (?, ?, " + micros() + ", "
					+ plusMillis(NOW) + ", " + NOW + ", ?, ?, ?) ON CONFLICT (lock_key) DO UPDATE SET"
					+ " token = EXCLUDED.token, fencing_token = GREATEST(t.fencing_token + 1, EXCLUDED.fencing_token),"
					+ " expires_at = EXCLUDED.expires_at, acquired_at = EXCLUDED.acquired_at,"
					+ " holder_instance = EXCLUDED.holder_instance, holder_pid = EXCLUDED.holder_pid,"
					+ " holder_method = EXCLUDED.holder_method WHERE t.expires_at <= " + NOW + " RETURNING fencing_token";
		}

		@Override
		boolean repeatsAcquireParameters() {
			return false;
		}

	},

	/**
	 * {@code MERGE INTO ... USING ... WHEN MATCHED AND expired ... WHEN NOT MATCHED},
	 * read through {@code FINAL TABLE} for the fencing token. H2 locks a matched row and
	 * checks the condition again against its latest version; two callers that both find
	 * no row race on the primary key, and the loser's duplicate-key error (see
	 * {@link JdbcFailures#isDuplicateKey}) is taken for a lock held by the winner.
	 */
	H2("H2") {

		@Override
		String plusMillis(String timestamp) {
			return "DATEADD(MILLISECOND, CAST(? AS BIGINT), " + timestamp + ")";
		}

		@Override
		String millisBetween(String from, String to) {
			return "DATEDIFF(MILLISECOND, " + from + ", " + to + ")";
		}

		@Override
		String micros() {
			return "DATEDIFF(MICROSECOND, " + EPOCH + ", " + NOW + ")";
		}

		@Override
		String binaryOrder(String column) {
			return column;
		}

		@Override
		String acquire(String table) {
			return "SELECT fencing_token FROM FINAL TABLE (MERGE INTO " + table + " t"
					+ " USING (VALUES (CAST(? AS VARCHAR(" + JdbcLockStore.MAX_KEY_LENGTH + ")))) s(lock_key)"
					+ " ON t.lock_key = s.lock_key"
					+ " WHEN MATCHED AND t.expires_at <= " + NOW + " THEN UPDATE SET token = ?,"
					+ " fencing_token = GREATEST(t.fencing_token + 1, " + micros() + "), expires_at = " + plusMillis(NOW)
					+ ", acquired_at = " + NOW + ", holder_instance = ?, holder_pid = ?, holder_method = ?"
					+ " WHEN NOT MATCHED THEN INSERT (" + COLUMNS + ") VALUES (s.lock_key, ?, " + micros() + ", "
					+ plusMillis(NOW) + ", " + NOW + ", ?, ?, ?))";
		}

		@Override
		boolean repeatsAcquireParameters() {
			return true;
		}

	};

	/** The database's clock, read once per statement. */
	static final String NOW = "CURRENT_TIMESTAMP";

	/** Where a released or force-released lock expires: long ago, whatever the clock does next. */
	static final String EPOCH = "TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00'";

	static final String COLUMNS = "lock_key, token, fencing_token, expires_at, acquired_at, holder_instance, holder_pid, holder_method";

	private final String productName;

	LockTableDialect(String productName) {
		this.productName = productName;
	}

	/** A timestamp plus a parameter in milliseconds. */
	abstract String plusMillis(String timestamp);

	/** The milliseconds from one timestamp to another, as a {@code BIGINT}. */
	abstract String millisBetween(String from, String to);

	/** The database's clock in microseconds since the epoch, for the fencing token's floor. */
	abstract String micros();

	/** The column in the order of Java's {@link String#compareTo}, for ASCII keys. */
	abstract String binaryOrder(String column);

	/**
	 * The acquire: inserts the lock, or takes over a row whose lock has expired or was
	 * released, and answers the new fencing token; no row when the lock is held. Its
	 * parameters: key, token, TTL in milliseconds, holder instance, pid, method; a second
	 * time from the token on when {@link #repeatsAcquireParameters()}.
	 */
	abstract String acquire(String table);

	abstract boolean repeatsAcquireParameters();

	/**
	 * The dialect of a database, by its product name.
	 * @param productName what {@link java.sql.DatabaseMetaData#getDatabaseProductName()} answers
	 * @return the dialect, or {@code null} if the store does not support the database yet
	 */
	static @Nullable LockTableDialect of(String productName) {
		for (LockTableDialect dialect : values()) {
			if (dialect.productName.equalsIgnoreCase(productName.trim())) {
				return dialect;
			}
		}
		return null;
	}

	String platform() {
		return name().toLowerCase(Locale.ROOT);
	}

}
