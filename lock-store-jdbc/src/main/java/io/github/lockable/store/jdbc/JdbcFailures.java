package io.github.lockable.store.jdbc;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;

/**
 * How a failed statement becomes a {@link LockStoreException}: its code says what kind of
 * failure it was, its message names the operation, the key and the SQL state, never a
 * token (statements carry tokens as parameters, and drivers leave parameters out of their
 * messages).
 */
final class JdbcFailures {

	/** Slower than the store's timeout, or cancelled by it. */
	static final String TIMEOUT = "TIMEOUT";

	/** No connection to the database. */
	static final String UNREACHABLE = "UNREACHABLE";

	/** The lock table is missing. */
	static final String NO_TABLE = "NO_TABLE";

	/** The database refuses writes: read-only, or a standby. */
	static final String READ_ONLY = "READ_ONLY";

	private JdbcFailures() {
	}

	/**
	 * The failure of a statement on a table; one coded {@link #NO_TABLE} says how to create
	 * the table, by the script of the platform when it is known.
	 */
	static LockStoreException of(String operation, @Nullable String key, SQLException ex, String table,
			@Nullable LockTableDialect dialect) {
		String state = ex.getSQLState();
		String what = operation + ((key != null) ? " of '" + key + "'" : "");
		String code = code(ex, state);
		String advice = NO_TABLE.equals(code) ? "the lock table " + table + " does not exist: "
				+ JdbcLockStoreSchema.createAdvice((dialect != null) ? dialect.platform() : null) + "; the database said: "
				: "";
		return new LockStoreException("JDBC store: " + what + " failed (" + code
				+ ((state != null) ? ", SQL state " + state : "") + "): " + advice + oneLine(ex.getMessage()), code, ex);
	}

	/**
	 * A driver's message on one line, as a log line quotes it: PostgreSQL's driver puts the
	 * position, the hint and the detail of an error on lines of their own.
	 */
	static String oneLine(@Nullable String message) {
		return String.valueOf(message).strip().replaceAll("\\s*\\R\\s*", " ");
	}

	static LockStoreException unexpected(String operation, @Nullable String key, RuntimeException ex) {
		return new LockStoreException("JDBC store: " + operation + ((key != null) ? " of '" + key + "'" : "")
				+ " failed: " + ex, LockStoreException.GENERIC_CODE, ex);
	}

	static LockStoreException timeout(String operation, String key, long elapsedMillis) {
		return new LockStoreException(
				"JDBC store: " + operation + " of '" + key + "' took " + elapsedMillis + "ms, longer than its timeout",
				TIMEOUT, null);
	}

	private static String code(SQLException ex, @Nullable String state) {
		if (ex instanceof SQLTimeoutException || "57014".equals(state)) {
			// 57014: PostgreSQL's query_canceled, as its driver reports a query timeout
			return TIMEOUT;
		}
		if (ex instanceof SQLTransientConnectionException || (state != null && state.startsWith("08"))
				|| "57P01".equals(state) || "57P02".equals(state) || "57P03".equals(state)) {
			// 57P0x: PostgreSQL shutting down, crashed or starting, as a connection open then learns
			return UNREACHABLE;
		}
		if ("42P01".equals(state) || "42S02".equals(state) || "42S04".equals(state) || "42102".equals(state)
				|| "3F000".equals(state) || "90079".equals(state) || ("42000".equals(state) && ex.getErrorCode() == 1049)) {
			// undefined table: PostgreSQL, MySQL and the standard, H2; or undefined schema (the
			// table's qualifier): the standard, H2, MySQL and MariaDB (unknown database)
			return NO_TABLE;
		}
		if ("25006".equals(state) || "90097".equals(state) || ex.getErrorCode() == 1290 || ex.getErrorCode() == 1792) {
			// 25006: a read-only transaction (PostgreSQL's default_transaction_read_only, a hot
			// standby; MySQL's 1792); 1290: MySQL and MariaDB under --read-only; 90097: H2's
			return READ_ONLY;
		}
		return LockStoreException.GENERIC_CODE;
	}

	/**
	 * Whether a failure came from a connection that was dead before the statement: the
	 * server terminated its backend or the network dropped it, which a pool learns only
	 * by using the connection. Another connection may work.
	 */
	static boolean isDeadConnection(LockStoreException ex) {
		return UNREACHABLE.equals(ex.getCode()) && ex.getCause() instanceof SQLException;
	}

	/**
	 * Whether two inserts of one new key raced and this one lost, which an acquire answers
	 * by trying again: the key is there now.
	 */
	static boolean isDuplicateKey(SQLException ex) {
		// 23505: PostgreSQL and H2; MySQL and MariaDB say 23000, for every integrity violation, with error 1062
		return "23505".equals(ex.getSQLState()) || ("23000".equals(ex.getSQLState()) && ex.getErrorCode() == 1062);
	}

}
