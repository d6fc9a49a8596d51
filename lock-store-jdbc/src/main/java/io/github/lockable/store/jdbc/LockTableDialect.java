package io.github.lockable.store.jdbc;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * What differs between databases in the statements of {@link LockStatements}: the
 * database's clock and its arithmetic, the epoch, the order of keys, and the one statement
 * that takes a free or expired lock, with how it answers the fencing token. Everything else
 * is standard SQL.
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

		@Override
		boolean returnsFencingToken() {
			return true;
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

		@Override
		boolean returnsFencingToken() {
			return true;
		}

	},

	/**
	 * MySQL 8 and MariaDB 10.5+ (InnoDB): {@code INSERT ... ON DUPLICATE KEY UPDATE}, which
	 * locks the existing row and then runs its assignments, each column a
	 * {@code IF(expired, new, old)}. The assignments run left to right, each seeing the
	 * columns assigned before it, so {@code expires_at} comes last: every {@code IF} before
	 * it sees the old expiry. (MariaDB's {@code SIMULTANEOUS_ASSIGNMENT} mode, where all see
	 * the old row, gives the same result.) A concurrent insert of a new key waits on the
	 * winner's row and then finds it live. There is no {@code RETURNING}, and the affected
	 * row count cannot tell an update from a row left as it was (drivers report found rows
	 * by default), so the caller reads the fencing token back by key and its own random token
	 * ({@link LockStatements#fencingToken()}). Times are {@code DATETIME(6)} in UTC,
	 * {@code UTC_TIMESTAMP(6)}: the session's time zone never enters a comparison.
	 */
	MYSQL("MySQL", "MariaDB") {

		@Override
		String now() {
			return "UTC_TIMESTAMP(6)";
		}

		@Override
		String epoch() {
			return "TIMESTAMP '1970-01-01 00:00:00'";
		}

		@Override
		String plusMillis(String timestamp) {
			return "TIMESTAMPADD(MICROSECOND, CAST(? AS SIGNED) * 1000, " + timestamp + ")";
		}

		@Override
		String millisBetween(String from, String to) {
			return "TIMESTAMPDIFF(MICROSECOND, " + from + ", " + to + ") DIV 1000";
		}

		@Override
		String micros() {
			// DATETIME arithmetic, not UNIX_TIMESTAMP(), which reads its argument in the session's zone
			return "TIMESTAMPDIFF(MICROSECOND, " + epoch() + ", " + now() + ")";
		}

		@Override
		String offsetDateTime(String column) {
			// a DATETIME has no zone, and drivers read it in the JVM's: text with the offset instead
			return "DATE_FORMAT(" + column + ", '%Y-%m-%dT%H:%i:%s.%f+00:00')";
		}

		@Override
		String binaryOrder(String column) {
			// utf8mb4_bin in the schema script: byte order, which is Java's for ASCII, by the index
			return column;
		}

		@Override
		String acquire(String table) {
			String expired = "expires_at <= " + now();
			return "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, ?, " + micros() + ", " + plusMillis(now())
					+ ", " + now() + ", ?, ?, ?) ON DUPLICATE KEY UPDATE"
					+ " token = IF(" + expired + ", VALUES(token), token),"
					+ " fencing_token = IF(" + expired + ", GREATEST(fencing_token + 1, VALUES(fencing_token)),"
					+ " fencing_token),"
					+ " acquired_at = IF(" + expired + ", VALUES(acquired_at), acquired_at),"
					+ " holder_instance = IF(" + expired + ", VALUES(holder_instance), holder_instance),"
					+ " holder_pid = IF(" + expired + ", VALUES(holder_pid), holder_pid),"
					+ " holder_method = IF(" + expired + ", VALUES(holder_method), holder_method),"
					// last: every IF before it must see the old expiry
					+ " expires_at = IF(" + expired + ", VALUES(expires_at), expires_at)";
		}

		@Override
		boolean repeatsAcquireParameters() {
			return false;
		}

		@Override
		boolean returnsFencingToken() {
			return false;
		}

	};

	/** The standard's clock, read once per statement. */
	static final String NOW = "CURRENT_TIMESTAMP";

	/** The standard's epoch. */
	static final String EPOCH = "TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00'";

	static final String COLUMNS = "lock_key, token, fencing_token, expires_at, acquired_at, holder_instance, holder_pid, holder_method";

	private final List<String> productNames;

	LockTableDialect(String... productNames) {
		this.productNames = List.of(productNames);
	}

	/** The database's clock, read once per statement, as the type of the table's times. */
	String now() {
		return NOW;
	}

	/** Where a released or force-released lock expires: long ago, whatever the clock does next. */
	String epoch() {
		return EPOCH;
	}

	/** A timestamp plus a parameter in milliseconds. */
	abstract String plusMillis(String timestamp);

	/** The milliseconds from one timestamp to another, as a {@code BIGINT}. */
	abstract String millisBetween(String from, String to);

	/** The database's clock in microseconds since the epoch, for the fencing token's floor. */
	abstract String micros();

	/**
	 * A time column as what {@code getObject(column, OffsetDateTime.class)} reads as the
	 * instant it holds, whatever the JVM's time zone.
	 */
	String offsetDateTime(String column) {
		return column;
	}

	/** The column in the order of Java's {@link String#compareTo}, for ASCII keys. */
	abstract String binaryOrder(String column);

	/**
	 * The acquire: inserts the lock, or takes over a row whose lock has expired or was
	 * released, and answers the new fencing token; no row when the lock is held (or, unless
	 * {@link #returnsFencingToken()}, an update count, and the fencing token is read back).
	 * Its parameters: key, token, TTL in milliseconds, holder instance, pid, method; a
	 * second time from the token on when {@link #repeatsAcquireParameters()}.
	 */
	abstract String acquire(String table);

	abstract boolean repeatsAcquireParameters();

	/**
	 * Whether {@link #acquire(String)} is a query that answers the new fencing token, or an
	 * update after which the caller reads its own row back ({@link LockStatements#fencingToken()}).
	 */
	abstract boolean returnsFencingToken();

	/**
	 * The dialect of a database, by its product name.
	 * @param productName what {@link java.sql.DatabaseMetaData#getDatabaseProductName()} answers
	 * @return the dialect, or {@code null} if the store does not support the database yet
	 */
	static @Nullable LockTableDialect of(String productName) {
		for (LockTableDialect dialect : values()) {
			for (String name : dialect.productNames) {
				if (name.equalsIgnoreCase(productName.trim())) {
					return dialect;
				}
			}
		}
		return null;
	}

	String platform() {
		return name().toLowerCase(Locale.ROOT);
	}

}
