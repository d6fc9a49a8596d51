package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.NonBlockingCallers;
import io.github.lockable.store.PollBackoff;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.StoredLock;

import org.springframework.util.Assert;

/**
 * A {@link LockStore} of rows in one table of the application's own database, for
 * applications with a relational database and no Redis: PostgreSQL, MySQL 8, MariaDB
 * 10.5+ and H2. The table comes from the schema script of the platform,
 * {@code classpath:io/github/lockable/store/jdbc/schema-<platform>.sql}.
 * <p>
 * Every decision is taken by the database, on its clock, never on the JVM's: one row per
 * key, live while its {@code expires_at} lies ahead of the database's
 * {@code CURRENT_TIMESTAMP} ({@code UTC_TIMESTAMP(6)} on MySQL and MariaDB). An acquire is
 * one statement that inserts the row or takes over one whose lock has expired, and issues
 * the fencing token in the same statement (on MySQL and MariaDB, which have no
 * {@code RETURNING}, read back by the acquire's own token; see {@link Acquisitions} and
 * {@link LockTableDialect}). A release moves the expiry of the
 * caller's live row to the epoch and an extend moves it ahead, both owner-checked in their
 * {@code WHERE}; a force-release expires the key's live row whoever holds it. A
 * released row is kept, not deleted, so that it keeps the key's last fencing token: the
 * next acquire issues the larger of that token plus one and the database's clock in
 * microseconds ({@link LockTokens#nextFencingToken(long, long)}), so tokens strictly
 * increase per key even across a clock that steps back, and stay above every earlier one
 * should a row ever be deleted.
 * <p>
 * Each operation runs on a connection of its own with auto-commit, never in the caller's
 * transaction (see {@link LockConnections}), on the caller's thread unless that thread
 * must not block (see {@link NonBlockingCallers}). A statement is cut off by the database
 * driver after the store's timeout, rounded up to whole seconds; an acquire that lands
 * later than the timeout is released again and answered as a failure coded
 * {@code TIMEOUT}. On PostgreSQL a release or force-release that expired a row notifies
 * the table's channel in the same statement ({@code pg_notify}, see {@link ReleaseChannel}),
 * and while somebody waits in {@link #awaitRelease(String, Duration)} one connection of the
 * store listens to it, so that another instance's release wakes this one's waiters (see
 * {@link ReleaseNotifications}; it needs the PostgreSQL driver, pgjdbc). Elsewhere, and
 * whenever that connection is down, another instance's release is seen only by asking the
 * database, so waiters poll with a back-off (see {@link PollBackoff}); this JVM's releases
 * wake its waiters at once.
 */
public final class JdbcLockStore implements LockStore, LockStoreHealth, AutoCloseable {

	/** The table of the schema scripts. */
	public static final String DEFAULT_TABLE_NAME = "lockable_lock";

	/** As long as the default {@code lockable.acquire-timeout}. */
	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	/** The longest key, as wide as the table's {@code lock_key} column. */
	static final int MAX_KEY_LENGTH = 512;

	private static final Pattern TABLE_NAME = Pattern
		.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

	private static final Logger logger = LoggerFactory.getLogger(JdbcLockStore.class);

	private final String tableName;

	private final Duration timeout;

	private final LockConnections connections;

	private final PollBackoff backoff = new PollBackoff();

	private final Acquisitions acquisitions;

	private final ReleaseChannel channel;

	/** Null without the PostgreSQL driver; unused on other databases. */
	private final @Nullable ReleaseNotifications notifications;

	/**
	 * Creates a store on the {@value #DEFAULT_TABLE_NAME} table of a data source.
	 * @param dataSource the application's data source
	 */
	public JdbcLockStore(DataSource dataSource) {
		this(dataSource, DEFAULT_TABLE_NAME, DEFAULT_TIMEOUT);
	}

	/**
	 * Creates a store on a table of a data source.
	 * @param dataSource the application's data source
	 * @param tableName the lock table, such as {@code lockable_lock} or
	 * {@code locks.lockable_lock}: letters, digits and underscores, optionally after a schema
	 * @param timeout how long an operation may take, the connection included, before it
	 * fails with the code {@code TIMEOUT}
	 */
	public JdbcLockStore(DataSource dataSource, String tableName, Duration timeout) {
		this(dataSource, tableName, timeout, true);
	}

	/**
	 * Creates a store on a table of a data source, listening for releases on PostgreSQL or
	 * not. Behind a pooler that keeps no session state between transactions (PgBouncer in
	 * transaction mode) a {@code LISTEN} is not kept: turn listening off there, and waiters
	 * poll with the back-off as on other databases.
	 * @param dataSource the application's data source
	 * @param tableName the lock table, as for {@link #JdbcLockStore(DataSource, String, Duration)}
	 * @param timeout how long an operation may take, the connection included
	 * @param listenForReleases whether waiters on PostgreSQL are woken by other instances'
	 * releases through {@code LISTEN}/{@code NOTIFY}, which takes one connection while
	 * somebody waits
	 */
	public JdbcLockStore(DataSource dataSource, String tableName, Duration timeout, boolean listenForReleases) {
		this(dataSource, tableName, timeout, listenForReleases ? ReleaseNotifications.LISTENING_POLL : null,
				ReleaseNotifications.LINGER);
	}

	/**
	 * As above, with the longest wait while notifications arrive ({@code null} listens for
	 * none) and the listening connection's linger.
	 */
	JdbcLockStore(DataSource dataSource, String tableName, Duration timeout, @Nullable Duration listeningPoll,
			Duration linger) {
		Assert.notNull(dataSource, "dataSource must not be null");
		Assert.isTrue(isTableName(tableName),
				() -> "tableName must be an SQL identifier, optionally schema-qualified, was '" + tableName + "'");
		Assert.isTrue(timeout != null && !timeout.isNegative() && !timeout.isZero(),
				() -> "timeout must be positive, was " + timeout);
		this.tableName = tableName;
		this.timeout = timeout;
		this.connections = new LockConnections(dataSource, tableName, timeout);
		this.acquisitions = new Acquisitions(this, this.connections, timeout, this.backoff);
		this.channel = new ReleaseChannel(tableName);
		this.notifications = (listeningPoll != null && ReleaseNotifications.DRIVER_PRESENT) ? new ReleaseNotifications(
				this.connections.dataSource(), tableName, this.backoff, timeout, listeningPoll, linger) : null;
	}

	/** Whether a name is one the store takes for its table: it goes into SQL as it is. */
	static boolean isTableName(@Nullable String tableName) {
		return tableName != null && TABLE_NAME.matcher(tableName).matches();
	}

	@Override
	public String name() {
		return "jdbc";
	}

	/**
	 * Whether the lock table takes writes now: DOWN, with the code, where every acquire
	 * would fail, a missing table ({@code NO_TABLE}) or a database that refuses writes
	 * ({@code READ_ONLY}: read-only, a standby) among them.
	 */
	@Override
	public Status checkHealth() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("table", this.tableName);
		try {
			String platform = this.connections.run("health check", null, (connection, sql) -> {
				try (PreparedStatement statement = this.connections.prepare(connection, sql.check())) {
					statement.executeUpdate();
				}
				return sql.dialect().platform();
			});
			details.put("platform", platform);
			return new Status(true, details);
		}
		catch (LockStoreException ex) {
			details.put("error", ex.getCode());
			if (JdbcFailures.NO_TABLE.equals(ex.getCode())) {
				LockStatements known = this.connections.known();
				details.put("action", "the table does not exist: " + JdbcLockStoreSchema.createAdvice((known != null) ? known.dialect().platform() : null));
			}
			else if (JdbcFailures.READ_ONLY.equals(ex.getCode())) {
				details.put("action", "the database refuses writes (read-only, or a standby): point the DataSource at the primary");
			}
			return new Status(false, details);
		}
	}

	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		long requested = System.nanoTime();
		return NonBlockingCallers.complete(() -> {
			try {
				return this.acquisitions.acquire(request, requested);
			}
			catch (LockStoreException ex) {
				return new AcquireResult.Failed(ex);
			}
		});
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		return NonBlockingCallers.complete(() -> {
			int released = this.connections.runAgainOnDeadConnection("release", lease.key(),
					(connection, sql) -> notifies(sql)
							? update(connection, this.channel.release(sql), true, lease.key(), lease.token())
							: update(connection, sql.release(), false, lease.key(), lease.token()));
			wake(lease.key());
			return (released > 0) ? ReleaseResult.RELEASED : ReleaseResult.NOT_OWNER;
		});
	}

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		Assert.isTrue(ttl.toMillis() >= 1, () -> "ttl must be at least 1ms, was " + ttl);
		return NonBlockingCallers.complete(() -> this.connections.runAgainOnDeadConnection("extend", lease.key(),
				(connection, sql) -> {
					try (PreparedStatement statement = this.connections.prepare(connection, sql.extend())) {
						statement.setLong(1, ttl.toMillis());
						statement.setString(2, lease.key());
						statement.setString(3, lease.token());
						return statement.executeUpdate() > 0;
					}
				}));
	}

	/** The token issued in the acquire, while the lease still owns the lock. */
	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		return NonBlockingCallers.complete(() -> this.connections.run("fencingToken", lease.key(), (connection, sql) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, sql.owned())) {
				statement.setString(1, lease.key());
				statement.setString(2, lease.token());
				try (ResultSet row = statement.executeQuery()) {
					return row.next() ? lease.fencingToken() : 0L;
				}
			}
		}));
	}

	/** The live rows under the prefix, in key order, one more than the limit to tell a cut listing. */
	@Override
	public CompletionStage<LockListing> locks(String prefix, int limit) {
		Assert.isTrue(limit >= 1, () -> "limit must be at least 1, was " + limit);
		return NonBlockingCallers.complete(() -> this.connections.run("list", prefix + "*", (connection, sql) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, sql.list())) {
				statement.setString(1, LockStatements.startsWith(prefix));
				statement.setInt(2, (limit == Integer.MAX_VALUE) ? limit : limit + 1);
				List<StoredLock> locks = new ArrayList<>();
				boolean truncated = false;
				try (ResultSet rows = statement.executeQuery()) {
					while (rows.next()) {
						if (locks.size() == limit) {
							truncated = true;
							break;
						}
						locks.add(storedLock(rows));
					}
				}
				return new LockListing(locks, truncated);
			}
		}));
	}

	private static StoredLock storedLock(ResultSet row) throws SQLException {
		String instance = row.getString(3);
		long pid = row.getLong(4);
		String method = row.getString(5);
		LockHolder holder = (instance != null && method != null) ? new LockHolder(instance, pid, method) : null;
		OffsetDateTime acquiredAt = row.getObject(6, OffsetDateTime.class);
		return new StoredLock(row.getString(1), Duration.ofMillis(Math.max(0, row.getLong(2))), holder,
				(acquiredAt != null) ? acquiredAt.toInstant() : null);
	}

	/** Expires the key's live row, whoever holds it, and wakes this JVM's waiters. */
	@Override
	public CompletionStage<Boolean> forceRelease(String key) {
		return NonBlockingCallers.complete(() -> {
			int released = this.connections.run("force-release", key,
					(connection, sql) -> notifies(sql)
							? update(connection, this.channel.forceRelease(sql), true, key)
							: update(connection, sql.forceRelease(), false, key));
			wake(key);
			if (released > 0) {
				logger.info("Force-released the lock '{}'", key);
			}
			return released > 0;
		});
	}

	/**
	 * Runs a release: an update, or on PostgreSQL the statement that also notifies, which
	 * answers a row per released lock.
	 */
	private int update(Connection connection, String sql, boolean notifying, String... parameters)
			throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, sql)) {
			for (int i = 0; i < parameters.length; i++) {
				statement.setString(i + 1, parameters[i]);
			}
			if (!notifying) {
				return statement.executeUpdate();
			}
			int released = 0;
			try (ResultSet rows = statement.executeQuery()) {
				while (rows.next()) {
					released++;
				}
			}
			return released;
		}
	}

	/** Whether releases notify: on PostgreSQL, whose stores listen (with or without the driver here). */
	private static boolean notifies(LockStatements sql) {
		return sql.dialect() == LockTableDialect.POSTGRESQL;
	}

	private void wake(String key) {
		this.backoff.released(key);
		if (this.notifications != null) {
			this.notifications.releasedHere(key);
		}
	}

	/** The lock table, as configured. */
	String tableName() {
		return this.tableName;
	}

	/** The store's connections, for the check of its table. */
	LockConnections connections() {
		return this.connections;
	}

	/** The listener, for the tests; null without the PostgreSQL driver. */
	@Nullable ReleaseNotifications notifications() {
		return this.notifications;
	}

	/**
	 * Completes when a store releases the key (on PostgreSQL, any store on the table; else
	 * this one), after the key's next {@link PollBackoff backoff} (on PostgreSQL while its
	 * listening connection is up, after at most a second), or after {@code maxWait},
	 * whichever comes first.
	 */
	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		LockStatements sql = this.connections.known();
		if (this.notifications != null && sql != null && notifies(sql)) {
			return this.notifications.await(key, maxWait);
		}
		return this.backoff.await(key, maxWait);
	}

	/**
	 * Wakes every waiter of {@link #awaitRelease} and closes the listening connection; the
	 * store keeps working, its waiters poll.
	 */
	@Override
	public void close() {
		if (this.notifications != null) {
			this.notifications.close();
		}
		this.backoff.releasedAll();
	}

	@Override
	public String toString() {
		return "JdbcLockStore[" + this.tableName + "]";
	}

}
