package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.PollBackoff;

/**
 * The acquire of {@link JdbcLockStore}: the one statement that inserts or takes over the
 * key's row ({@link LockTableDialect#acquire(String)}), followed, where that statement
 * does not answer the fencing token, by a read of the row by key and this acquire's token;
 * when it finds the lock held, a look at the holder's remaining TTL; and when it landed
 * later than the timeout, a release of what it took, so that a caller that gave up holds
 * nothing.
 */
final class Acquisitions {

	private final JdbcLockStore store;

	private final LockConnections connections;

	private final Duration timeout;

	private final PollBackoff backoff;

	Acquisitions(JdbcLockStore store, LockConnections connections, Duration timeout, PollBackoff backoff) {
		this.store = store;
		this.connections = connections;
		this.timeout = timeout;
		this.backoff = backoff;
	}

	/** Acquired, held, or failed: never throws. */
	AcquireResult acquire(LockRequest request, long requested) {
		String key = request.key();
		if (key.length() > JdbcLockStore.MAX_KEY_LENGTH) {
			return new AcquireResult.Failed(new LockStoreException("JDBC store: the key '" + key + "' is longer than "
					+ JdbcLockStore.MAX_KEY_LENGTH + " characters, the width of the table's lock_key column", "KEY_TOO_LONG", null));
		}
		String token = LockTokens.next();
		Instant acquiredAt = Instant.now();
		AcquireResult result = this.connections.run("acquire", key, (connection, sql) -> {
			// a lock released between the acquire and the look at its holder is tried again
			for (int attempt = 1;; attempt++) {
				long fencingToken = insertOrTakeOver(connection, sql, request, token);
				if (fencingToken > 0) {
					long elapsed = System.nanoTime() - requested;
					// at the deadline is late: the connection's deadline may have fired just now
					if (elapsed >= this.timeout.toNanos()) {
						release(connection, sql, key, token);
						return new AcquireResult.Failed(JdbcFailures.timeout("acquire", key, elapsed / 1_000_000));
					}
					LockLease lease = new LockLease(key, token, fencingToken, acquiredAt, request.ttl());
					return new AcquireResult.Acquired(new LockHandle(this.store, lease, requested));
				}
				AcquireResult.Held held = held(connection, sql, key);
				if (held != null || attempt == 3) {
					return (held != null) ? held : new AcquireResult.Held(Duration.ZERO, null);
				}
			}
		});
		if (result instanceof AcquireResult.Acquired) {
			this.backoff.reset(key);
		}
		return result;
	}

	/** The new fencing token, or 0 if the lock is held, by a live row or by an insert that won the race for a new key. */
	private long insertOrTakeOver(Connection connection, LockStatements sql, LockRequest request, String token)
			throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, sql.acquire())) {
			statement.setString(1, request.key());
			int next = bindAcquire(statement, 2, request, token);
			if (sql.dialect().repeatsAcquireParameters()) {
				bindAcquire(statement, next, request, token);
			}
			if (!sql.dialect().returnsFencingToken()) {
				// drivers count found rows, not changed ones, by default: only the row says whether it took
				return (statement.executeUpdate() > 0) ? readFencingToken(connection, sql, request.key(), token) : 0;
			}
			try (ResultSet row = statement.executeQuery()) {
				return row.next() ? row.getLong(1) : 0;
			}
		}
		catch (SQLException ex) {
			if (JdbcFailures.isDuplicateKey(ex)) {
				return 0;
			}
			throw ex;
		}
	}

	/** The fencing token of the key's row if it has this acquire's token, which is random; else 0. */
	private long readFencingToken(Connection connection, LockStatements sql, String key, String token)
			throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, sql.fencingToken())) {
			statement.setString(1, key);
			statement.setString(2, token);
			try (ResultSet row = statement.executeQuery()) {
				return row.next() ? row.getLong(1) : 0;
			}
		}
	}

	private static int bindAcquire(PreparedStatement statement, int first, LockRequest request, String token)
			throws SQLException {
		LockHolder holder = request.holder();
		statement.setString(first, token);
		statement.setLong(first + 1, request.ttl().toMillis());
		if (holder != null) {
			statement.setString(first + 2, holder.instance());
			statement.setLong(first + 3, holder.pid());
			statement.setString(first + 4, holder.method());
		}
		else {
			statement.setNull(first + 2, Types.VARCHAR);
			statement.setNull(first + 3, Types.BIGINT);
			statement.setNull(first + 4, Types.VARCHAR);
		}
		return first + 5;
	}

	private AcquireResult.@Nullable Held held(Connection connection, LockStatements sql, String key) throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, sql.held())) {
			statement.setString(1, key);
			try (ResultSet row = statement.executeQuery()) {
				return row.next() ? new AcquireResult.Held(Duration.ofMillis(Math.max(0, row.getLong(1))),
						Duration.ofMillis(Math.max(0, row.getLong(2)))) : null;
			}
		}
	}

	private void release(Connection connection, LockStatements sql, String key, String token) throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, sql.release())) {
			statement.setString(1, key);
			statement.setString(2, token);
			statement.executeUpdate();
		}
	}

}
