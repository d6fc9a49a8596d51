package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;

import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/**
 * The store's connections: each operation takes one of its own from the data source,
 * commits every statement on its own (auto-commit) and gives it back, so that no lock
 * statement ever runs in a transaction of the caller's, and a caller's rollback undoes
 * none. A data source that hands out the caller's transactional connection (Spring's
 * {@link TransactionAwareDataSourceProxy}) is unwrapped. An interrupt of the calling thread
 * neither fails the statements nor is lost: it is set again when the operation ends. The
 * wait for a connection is bounded by the store's timeout too, whatever the pool's own
 * setting (see {@link ConnectionDeadline}).
 */
final class LockConnections {

	private final DataSource dataSource;

	private final String table;

	private final Duration timeout;

	private final int queryTimeoutSeconds;

	private volatile @Nullable LockStatements statements;

	LockConnections(DataSource dataSource, String table, Duration timeout) {
		this.dataSource = (dataSource instanceof TransactionAwareDataSourceProxy proxy
				&& proxy.getTargetDataSource() != null) ? proxy.getTargetDataSource() : dataSource;
		this.table = table;
		this.timeout = timeout;
		// JDBC counts query timeouts in whole seconds; the store checks the exact time itself
		this.queryTimeoutSeconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (timeout.toMillis() + 999) / 1000));
	}

	/**
	 * Runs work on a connection of its own.
	 * @throws LockStoreException if a statement, or the data source, fails
	 */
	<T> T run(String operation, @Nullable String key, Work<T> work) {
		return run(operation, key, this.timeout, work);
	}

	/**
	 * As {@link #run}, once more on another connection when the first was dead: a pool
	 * hands out a connection whose backend the server terminated until it tries it, and
	 * the lock would stay for its whole TTL. For owner-checked work only, which is the same
	 * done twice; both attempts within the store's timeout.
	 */
	<T> T runAgainOnDeadConnection(String operation, String key, Work<T> work) {
		long start = System.nanoTime();
		try {
			return run(operation, key, this.timeout, work);
		}
		catch (LockStoreException ex) {
			Duration left = this.timeout.minusNanos(System.nanoTime() - start);
			if (!JdbcFailures.isDeadConnection(ex) || left.toMillis() < 1) {
				throw ex;
			}
			try {
				return run(operation, key, left, work);
			}
			catch (LockStoreException again) {
				again.addSuppressed(ex);
				throw again;
			}
		}
	}

	private <T> T run(String operation, @Nullable String key, Duration connectTimeout, Work<T> work) {
		boolean interrupted = Thread.interrupted();
		try (Connection connection = ConnectionDeadline.connect(this.dataSource, connectTimeout)) {
			boolean autoCommit = connection.getAutoCommit();
			if (!autoCommit) {
				connection.setAutoCommit(true);
			}
			try {
				return work.run(connection, statements(connection));
			}
			finally {
				if (!autoCommit) {
					connection.setAutoCommit(false);
				}
			}
		}
		catch (SQLException ex) {
			LockStatements known = this.statements;
			throw JdbcFailures.of(operation, key, ex, this.table, (known != null) ? known.dialect() : null);
		}
		catch (LockStoreException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			// a pool or driver that throws unchecked: still a store failure, never an escape from a stage
			throw JdbcFailures.unexpected(operation, key, ex);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** The data source connections come from, unwrapped as above. */
	DataSource dataSource() {
		return this.dataSource;
	}

	/** The statements, once a first connection told the database; else {@code null}. */
	@Nullable LockStatements known() {
		return this.statements;
	}

	/** A statement bounded by the store's timeout. */
	PreparedStatement prepare(Connection connection, String sql) throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		statement.setQueryTimeout(this.queryTimeoutSeconds);
		return statement;
	}

	/** The statements for the database, known from the first connection. */
	private LockStatements statements(Connection connection) throws SQLException {
		LockStatements known = this.statements;
		if (known == null) {
			String product = connection.getMetaData().getDatabaseProductName();
			LockTableDialect dialect = LockTableDialect.of(product);
			if (dialect == null) {
				throw new LockStoreException("JDBC store: " + product
						+ " is not supported yet; the store runs on PostgreSQL, MySQL, MariaDB and H2", "UNSUPPORTED_DATABASE", null);
			}
			known = LockStatements.of(dialect, this.table);
			this.statements = known;
		}
		return known;
	}

	@FunctionalInterface
	interface Work<T> {

		T run(Connection connection, LockStatements statements) throws SQLException;

	}

}
