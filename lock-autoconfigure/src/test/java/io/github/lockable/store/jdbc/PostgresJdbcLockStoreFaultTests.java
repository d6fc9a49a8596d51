package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.Stages;
import io.github.lockable.test.jdbc.JdbcTestDatabases;
import io.github.lockable.test.jdbc.PostgresTestServer;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The JDBC store under database faults, on a real PostgreSQL server: stopped mid-hold, a row
 * locked by another transaction, the application's pool exhausted. Every call is bounded by
 * the store's timeout (1 s here) plus a margin for a loaded machine, well below the pools'
 * own {@code connectionTimeout} (10 s here, 30 s by default), so a call that waited for the
 * pool fails the bound.
 */
class PostgresJdbcLockStoreFaultTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	/** The timeout, rounded up to whole seconds for the driver, and room for a loaded machine. */
	private static final Duration BOUND = Duration.ofSeconds(4);

	private static final Duration POOL_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration TTL = Duration.ofMinutes(1);

	private final ExecutorService caller = Executors.newSingleThreadExecutor();

	private HikariDataSource dataSource;

	@AfterEach
	void close() {
		this.caller.shutdownNow();
		if (this.dataSource != null) {
			this.dataSource.close();
		}
	}

	@Test
	void aDatabaseStoppedMidHoldFailsEveryCallWithinTheTimeoutAndKeepsTheLockThroughARestart() throws Exception {
		PostgresTestServer server = PostgresTestServer.startPrivate();
		try {
			server.createDatabase("faults");
			this.dataSource = pool(server.jdbcUrl("faults"), 4);
			JdbcTestDatabases.createTable(this.dataSource, "postgresql");
			JdbcLockStore store = store(this.dataSource);
			LockLease lease = acquired(store, "stopped");
			server.stop();
			try {
				assertFailsWithinBound(() -> Stages.join(store.release(lease)));
				assertFailsWithinBound(() -> Stages.join(store.extend(lease, TTL)));
				assertFailsWithinBound(() -> failure(Stages.join(store.acquire(request("other")))));
			}
			finally {
				server.start();
			}
			// the acquire was committed before the stop: the lock is still held until its TTL
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(Stages.join(store.acquire(request("stopped"))))
					.isInstanceOf(AcquireResult.Held.class));
			assertThat(Stages.join(store.release(lease))).isEqualTo(ReleaseResult.RELEASED);
			assertThat(acquired(store, "stopped").fencingToken()).isGreaterThan(lease.fencingToken());
		}
		finally {
			if (this.dataSource != null) {
				this.dataSource.close();
			}
			server.stop();
		}
	}

	@Test
	void statementsBlockedByARowLockElsewhereFailWithinTheTimeoutAndLeaveNoLock() throws Exception {
		this.dataSource = JdbcTestDatabases.postgres("faults_rows");
		JdbcLockStore store = store(this.dataSource);
		LockLease lease = acquired(store, "row-locked");
		try (Connection blocker = rowLocked("row-locked")) {
			assertFailsWithinBound(() -> Stages.join(store.release(lease)));
			assertFailsWithinBound(() -> Stages.join(store.extend(lease, TTL)));
			assertFailsWithinBound(() -> failure(Stages.join(store.acquire(request("row-locked")))));
			blocker.rollback();
		}
		assertThat(Stages.join(store.release(lease))).isEqualTo(ReleaseResult.RELEASED);
		try (Connection blocker = rowLocked("row-locked")) {
			assertFailsWithinBound(() -> failure(Stages.join(store.acquire(request("row-locked")))));
			blocker.rollback();
		}
		assertThat(liveRows("row-locked")).as("the cancelled acquire took nothing").isZero();
		Stages.join(store.release(acquired(store, "row-locked")));
	}

	@Test
	void anAcquireThatARowLockMadeLandLateIsReleasedAgain() throws Exception {
		this.dataSource = JdbcTestDatabases.postgres("faults_rows");
		Duration timeout = Duration.ofMillis(1200);
		JdbcLockStore store = new JdbcLockStore(this.dataSource, JdbcLockStore.DEFAULT_TABLE_NAME, timeout);
		Stages.join(store.release(acquired(store, "late")));
		try (Connection blocker = rowLocked("late")) {
			long start = System.nanoTime();
			Future<AcquireResult> late = this.caller.submit(() -> Stages.join(store.acquire(request("late"))));
			// the acquire waits for the row lock past the store's timeout, short of the driver's 2 s
			await().atMost(Duration.ofSeconds(10))
				.until(() -> waitingForALock() && System.nanoTime() - start > Duration.ofMillis(1300).toNanos());
			blocker.commit();
			assertThat(late.get(30, TimeUnit.SECONDS)).isInstanceOfSatisfying(AcquireResult.Failed.class,
					(failed) -> assertThat(failed.cause().getCode()).isEqualTo(JdbcFailures.TIMEOUT));
		}
		assertThat(liveRows("late")).as("the late acquire was released again").isZero();
	}

	@Test
	void anExhaustedPoolFailsTheStoreWithinItsTimeoutAndLeavesTheCallerUninterrupted() throws Exception {
		this.dataSource = pool(postgresUrl("faults_pool"), 2);
		JdbcTestDatabases.createTable(this.dataSource, "postgresql");
		JdbcLockStore store = store(this.dataSource);
		try (Connection first = this.dataSource.getConnection(); Connection second = this.dataSource.getConnection()) {
			LockStoreException failure = assertFailsWithinBound(() -> {
				assertThat(Thread.currentThread().isInterrupted()).isFalse();
				LockStoreException cause = failure(Stages.join(store.acquire(request("exhausted"))));
				assertThat(Thread.currentThread().isInterrupted()).as("interrupted by the store").isFalse();
				return cause;
			});
			assertThat(failure.getCode()).isEqualTo(JdbcFailures.TIMEOUT);
			assertThat(failure.getMessage()).contains("exhausted", "Raise the pool's maximum size",
					"give Lockable a DataSource of its own");
			assertFailsWithinBound(() -> {
				Thread.currentThread().interrupt();
				LockStoreException cause = failure(Stages.join(store.acquire(request("exhausted"))));
				assertThat(Thread.interrupted()).as("the caller's own interrupt kept").isTrue();
				return cause;
			});
		}
		Stages.join(store.release(acquired(store, "exhausted")));
	}

	/**
	 * A pool hands out a connection whose backend the server terminated (a restart, an
	 * operator's {@code pg_terminate_backend}, an idle timeout) until it tries it: the
	 * release and the extend that meet one run again on another connection, instead of
	 * leaving the lock for its whole TTL.
	 */
	@Test
	void aReleaseOrExtendOnAConnectionTheServerTerminatedRunsAgainOnAnother() throws Exception {
		this.dataSource = JdbcTestDatabases.postgres("faults_terminated");
		TerminatedFirst connections = new TerminatedFirst(this.dataSource);
		JdbcLockStore store = new JdbcLockStore(connections, JdbcLockStore.DEFAULT_TABLE_NAME, TIMEOUT, false);
		LockLease lease = acquired(store, "terminated");
		connections.nextIsTerminated();
		assertThat(Stages.join(store.extend(lease, TTL))).isTrue();
		assertThat(connections.handedOut()).as("the terminated connection was tried first").isTrue();
		connections.nextIsTerminated();
		assertThat(Stages.join(store.release(lease))).isEqualTo(ReleaseResult.RELEASED);
		assertThat(connections.handedOut()).isTrue();
		assertThat(liveRows("terminated")).isZero();
	}

	/** Hands out, when told, a connection whose backend the server terminated, then the pool's. */
	private static final class TerminatedFirst extends DelegatingDataSource {

		private final AtomicReference<Connection> terminated = new AtomicReference<>();

		TerminatedFirst(DataSource pool) {
			super(pool);
		}

		void nextIsTerminated() throws SQLException {
			HikariDataSource pool = (HikariDataSource) obtainTargetDataSource();
			Connection connection = DriverManager.getConnection(pool.getJdbcUrl(), PostgresTestServer.USER, "");
			JdbcTemplate admin = new JdbcTemplate(pool);
			Integer pid;
			try (Statement statement = connection.createStatement();
					ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
				row.next();
				pid = row.getInt(1);
			}
			assertThat(admin.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, pid)).isTrue();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> admin.queryForObject("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?", Integer.class,
						pid) == 0);
			this.terminated.set(connection);
		}

		/** Whether the terminated connection was handed out (and closed) since it was made. */
		boolean handedOut() throws SQLException {
			return this.terminated.get() == null;
		}

		@Override
		public Connection getConnection() throws SQLException {
			Connection connection = this.terminated.getAndSet(null);
			return (connection != null) ? connection : super.getConnection();
		}

	}

	private static JdbcLockStore store(HikariDataSource dataSource) {
		return new JdbcLockStore(dataSource, JdbcLockStore.DEFAULT_TABLE_NAME, TIMEOUT);
	}

	private static LockRequest request(String key) {
		return new LockRequest("faults:" + key, TTL, true);
	}

	private static LockLease acquired(JdbcLockStore store, String key) {
		AcquireResult result = Stages.join(store.acquire(request(key)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle().lease();
	}

	private static LockStoreException failure(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		return ((AcquireResult.Failed) result).cause();
	}

	/** Runs a call on another thread, which must fail, or answer a failure, within the bound. */
	private LockStoreException assertFailsWithinBound(Callable<?> call) throws Exception {
		long start = System.nanoTime();
		Future<?> future = this.caller.submit(call);
		Object answer;
		try {
			answer = future.get(60, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			answer = ex.getCause();
		}
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(answer).isInstanceOf(LockStoreException.class);
		LockStoreException failure = (LockStoreException) answer;
		assertThat(took).as("%s", failure).isLessThan(BOUND);
		assertThat(failure.getCode()).as("%s", failure).isIn(JdbcFailures.TIMEOUT, JdbcFailures.UNREACHABLE);
		return failure;
	}

	/** A connection of its own whose open transaction holds the key's row lock. */
	private Connection rowLocked(String key) throws SQLException {
		Connection connection = DriverManager.getConnection(this.dataSource.getJdbcUrl(), PostgresTestServer.USER, "");
		connection.setAutoCommit(false);
		try (PreparedStatement lock = connection
			.prepareStatement("SELECT lock_key FROM lockable_lock WHERE lock_key = ? FOR UPDATE")) {
			lock.setString(1, "faults:" + key);
			try (ResultSet row = lock.executeQuery()) {
				assertThat(row.next()).isTrue();
			}
		}
		return connection;
	}

	private boolean waitingForALock() {
		Integer waiting = new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
				Integer.class);
		return waiting != null && waiting > 0;
	}

	private int liveRows(String key) {
		Integer rows = new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT COUNT(*) FROM lockable_lock WHERE lock_key = ? AND expires_at > CURRENT_TIMESTAMP", Integer.class,
				"faults:" + key);
		return (rows != null) ? rows : -1;
	}

	private static String postgresUrl(String database) {
		PostgresTestServer server = PostgresTestServer.shared();
		server.createDatabase(database);
		return server.jdbcUrl(database);
	}

	/** A pool as Spring Boot makes one, with a shorter wait than Hikari's 30 s default. */
	private static HikariDataSource pool(String url, int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(PostgresTestServer.USER);
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(size);
		config.setConnectionTimeout(POOL_TIMEOUT.toMillis());
		return new HikariDataSource(config);
	}

}
