package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one connection of {@link ReleaseNotifications} that listens on a lock table's
 * channel, taken from the data source and given back without its {@code LISTEN}. It runs
 * in auto-commit, so it never holds a transaction open; it reads with a network timeout
 * and sends a {@code SELECT 1} after a long silence, so that a server gone away without a
 * word fails it instead of leaving it waiting for good. Loaded only with pgjdbc on the
 * class path ({@link ReleaseNotifications#DRIVER_PRESENT}).
 */
final class ListeningConnection implements AutoCloseable {

	private static final long KEEPALIVE_NANOS = TimeUnit.SECONDS.toNanos(30);

	private static final Logger logger = LoggerFactory.getLogger(ListeningConnection.class);

	private final Connection connection;

	private final PGConnection pg;

	private final ReleaseChannel channel;

	private final int timeoutSeconds;

	private long heard = System.nanoTime();

	private ListeningConnection(Connection connection, ReleaseChannel channel, int timeoutSeconds)
			throws SQLException {
		this.connection = connection;
		this.pg = connection.unwrap(PGConnection.class);
		this.channel = channel;
		this.timeoutSeconds = timeoutSeconds;
	}

	/** A connection that listens on the channel. */
	static ListeningConnection open(DataSource dataSource, ReleaseChannel channel, int timeoutSeconds)
			throws SQLException {
		Connection connection = dataSource.getConnection();
		try {
			if (!connection.getAutoCommit()) {
				connection.setAutoCommit(true);
			}
			connection.setNetworkTimeout(Runnable::run, (int) TimeUnit.SECONDS.toMillis(timeoutSeconds + 5L));
			ListeningConnection listening = new ListeningConnection(connection, channel, timeoutSeconds);
			listening.execute(channel.listen());
			return listening;
		}
		catch (SQLException | RuntimeException ex) {
			closeQuietly(connection);
			throw ex;
		}
	}

	/** The keys notified on the channel, waiting up to the timeout for the first. */
	List<String> receive(int timeoutMillis) throws SQLException {
		PGNotification[] notifications = this.pg.getNotifications(timeoutMillis);
		if (notifications == null || notifications.length == 0) {
			if (System.nanoTime() - this.heard > KEEPALIVE_NANOS) {
				execute("SELECT 1");
				this.heard = System.nanoTime();
			}
			return List.of();
		}
		this.heard = System.nanoTime();
		List<String> keys = new ArrayList<>(notifications.length);
		for (PGNotification notification : notifications) {
			if (this.channel.name().equals(notification.getName())) {
				keys.add(notification.getParameter());
			}
		}
		return keys;
	}

	private void execute(String sql) throws SQLException {
		try (Statement statement = this.connection.createStatement()) {
			statement.setQueryTimeout(this.timeoutSeconds);
			statement.execute(sql);
		}
	}

	/** Gives the connection back: without its LISTEN, which would gather notifications in the pool, unless it is broken. */
	@Override
	public void close() {
		try {
			if (!this.connection.isClosed() && this.connection.isValid(this.timeoutSeconds)) {
				execute(this.channel.unlisten());
			}
		}
		catch (SQLException | RuntimeException ex) {
			logger.debug("Could not UNLISTEN before giving the connection back", ex);
		}
		closeQuietly(this.connection);
	}

	private static void closeQuietly(Connection connection) {
		try {
			connection.close();
		}
		catch (SQLException | RuntimeException ex) {
			logger.debug("Could not close the listening connection", ex);
		}
	}

}
