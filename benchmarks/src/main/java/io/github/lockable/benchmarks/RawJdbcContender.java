package io.github.lockable.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

/**
 * The floor of {@link JdbcSideBySide}: a lock as little as PostgreSQL allows, written by
 * hand on the same pool, each statement on a connection of its own with auto-commit. The
 * acquire is one {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE} that takes the row or
 * an expired one on the database's clock; the release one owner-checked {@code UPDATE}
 * that moves the expiry to the epoch. No fencing token, no holder, no timeout.
 */
final class RawJdbcContender implements Contender {

	private static final String TABLE = "bench_raw_lock";

	private static final String ACQUIRE = "INSERT INTO " + TABLE + " (lock_key, token, expires_at)"
			+ " VALUES (?, ?, CURRENT_TIMESTAMP + ? * INTERVAL '1 millisecond')"
			+ " ON CONFLICT (lock_key) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at"
			+ " WHERE " + TABLE + ".expires_at <= CURRENT_TIMESTAMP";

	private static final String RELEASE = "UPDATE " + TABLE
			+ " SET expires_at = TIMESTAMP WITH TIME ZONE 'epoch' WHERE lock_key = ? AND token = ?";

	private final DataSource dataSource;

	private final long ttlMillis;

	RawJdbcContender(DataSource dataSource, Duration ttl) throws SQLException {
		this.dataSource = dataSource;
		this.ttlMillis = ttl.toMillis();
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + TABLE);
			statement.execute("CREATE TABLE " + TABLE + " (lock_key VARCHAR(512) NOT NULL PRIMARY KEY,"
					+ " token VARCHAR(36) NOT NULL, expires_at TIMESTAMP WITH TIME ZONE NOT NULL)");
		}
	}

	@Override
	public String name() {
		return "raw JDBC (floor)";
	}

	@Override
	public Attempt on(String key, int thread) {
		return (section) -> {
			String token = UUID.randomUUID().toString();
			return Contender.runHolding(acquire(key, token), section, () -> release(key, token));
		};
	}

	private boolean acquire(String key, String token) throws SQLException {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(ACQUIRE)) {
			statement.setString(1, key);
			statement.setString(2, token);
			statement.setLong(3, this.ttlMillis);
			return statement.executeUpdate() > 0;
		}
	}

	private void release(String key, String token) {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(RELEASE)) {
			statement.setString(1, key);
			statement.setString(2, token);
			if (statement.executeUpdate() != 1) {
				throw new IllegalStateException("The raw release found no lock of its own on " + key);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
