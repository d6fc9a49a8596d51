package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.StoredLock;
import io.github.lockable.test.LockStoreContract;
import io.github.lockable.test.Stages;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The store contract on one database, plus what is particular to the JDBC store: the
 * database's clock decides, the caller's transaction is never joined, the table's
 * content, the listing's escaping, and the timeout.
 */
abstract class JdbcLockStoreContract extends LockStoreContract {

	/** The data source of the test class, with the lock table; shared by its cases. */
	protected abstract DataSource dataSource();

	private JdbcLockStore store;

	@Override
	protected LockStore createStore() {
		if (this.store == null) {
			this.store = new JdbcLockStore(dataSource());
		}
		return this.store;
	}

	/** The JDBC store polls: its waiters may wake without a release. */
	@Override
	protected boolean wakesOnlyOnRelease() {
		return false;
	}

	/** The database's clock as the table's times are kept, for statements of the tests' own. */
	protected String databaseNow() {
		return "CURRENT_TIMESTAMP";
	}

	private JdbcTemplate jdbc() {
		return new JdbcTemplate(dataSource());
	}

	@Test
	void nameIsJdbc() {
		assertThat(store().name()).isEqualTo("jdbc");
	}

	@Test
	void theDatabaseClockDecidesWhenALockExpires() {
		LockHandle holder = acquired(key("db-clock"), LONG_TTL).handle();
		// as if the database's clock had run past the TTL: this JVM still counts 30 seconds
		jdbc().update("UPDATE lockable_lock SET expires_at = " + databaseNow() + " - INTERVAL '1' SECOND WHERE lock_key = ?",
				key("db-clock"));
		assertThat(holder.isExpired()).isFalse();
		LockHandle next = acquired(key("db-clock"), LONG_TTL).handle();
		assertThat(next.lease().fencingToken()).isGreaterThan(holder.lease().fencingToken());
		assertThat(Stages.join(holder.extend(LONG_TTL))).isFalse();
		assertThat(Stages.join(holder.release())).isEqualTo(ReleaseResult.NOT_OWNER);
		assertThat(Stages.join(next.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void theRemainingTtlOfAHeldLockIsTheDatabasesCount() {
		LockHandle holder = acquired(key("db-ttl"), LONG_TTL).handle();
		jdbc().update("UPDATE lockable_lock SET expires_at = " + databaseNow() + " + INTERVAL '3' SECOND WHERE lock_key = ?",
				key("db-ttl"));
		assertThat(held(key("db-ttl"), LONG_TTL).remainingTtl()).isBetween(Duration.ofMillis(1), Duration.ofSeconds(3));
		assertThat(Stages.join(store().locks(key(""), 10)).locks()).singleElement()
			.extracting(StoredLock::ttlLeft)
			.satisfies((ttl) -> assertThat(ttl).isBetween(Duration.ofMillis(1), Duration.ofSeconds(3)));
		// free when the database says so, while this JVM's handle still counts its 30 seconds
		await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> Stages.join(store().acquire(new LockRequest(key("db-ttl"), LONG_TTL))) instanceof AcquireResult.Acquired);
		assertThat(holder.isExpired()).isFalse();
	}

	@Test
	void aReleaseKeepsTheRowAndItsFencingToken() {
		LockHandle first = acquired(key("kept-row"), LONG_TTL).handle();
		Stages.join(first.release());
		assertThat(jdbc().queryForObject("SELECT fencing_token FROM lockable_lock WHERE lock_key = ?", Long.class,
				key("kept-row")))
			.isEqualTo(first.lease().fencingToken());
		LockHandle second = acquired(key("kept-row"), LONG_TTL).handle();
		assertThat(second.lease().fencingToken()).isGreaterThan(first.lease().fencingToken());
		Stages.join(second.release());
	}

	@Test
	void aDeletedRowStillGivesAGreaterFencingToken() {
		LockHandle first = acquired(key("deleted-row"), LONG_TTL).handle();
		Stages.join(first.release());
		jdbc().update("DELETE FROM lockable_lock WHERE lock_key = ?", key("deleted-row"));
		LockHandle second = acquired(key("deleted-row"), LONG_TTL).handle();
		assertThat(second.lease().fencingToken()).isGreaterThan(first.lease().fencingToken());
		Stages.join(second.release());
	}

	@Test
	void theTableHoldsTheHolderAndTheTokenOfTheLock() {
		LockHandle holder = acquired(key("row"), LONG_TTL).handle();
		assertThat(jdbc().queryForObject("SELECT token FROM lockable_lock WHERE lock_key = ?", String.class, key("row")))
			.isEqualTo(holder.lease().token());
		Stages.join(holder.release());
	}

	@Test
	void aReleaseInsideACallersTransactionIsNotUndoneByItsRollback() {
		jdbc().execute("CREATE TABLE IF NOT EXISTS lockable_scratch (id VARCHAR(64))");
		LockHandle before = acquired(key("tx-held"), LONG_TTL).handle();
		TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
		transaction.executeWithoutResult((status) -> {
			jdbc().update("INSERT INTO lockable_scratch (id) VALUES (?)", key("tx"));
			LockHandle inside = acquired(key("tx-acquired"), LONG_TTL).handle();
			assertThat(inside).isNotNull();
			assertThat(Stages.join(before.release())).isEqualTo(ReleaseResult.RELEASED);
			status.setRollbackOnly();
		});
		assertThat(jdbc().queryForObject("SELECT COUNT(*) FROM lockable_scratch WHERE id = ?", Integer.class, key("tx")))
			.as("the transaction rolled back")
			.isZero();
		// the release stays, and so does the lock taken inside the transaction
		Stages.join(acquired(key("tx-held"), LONG_TTL).handle().release());
		held(key("tx-acquired"), LONG_TTL);
		Stages.join(store().forceRelease(key("tx-acquired")));
	}

	@Test
	void aStoreOnATransactionAwareDataSourceStillTakesConnectionsOfItsOwn() {
		jdbc().execute("CREATE TABLE IF NOT EXISTS lockable_scratch (id VARCHAR(64))");
		JdbcLockStore store = new JdbcLockStore(new TransactionAwareDataSourceProxy(dataSource()));
		TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
		transaction.executeWithoutResult((status) -> {
			jdbc().update("INSERT INTO lockable_scratch (id) VALUES (?)", key("aware"));
			AcquireResult result = Stages.join(store.acquire(new LockRequest(key("aware"), LONG_TTL)));
			assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
			assertThat(Stages.join(((AcquireResult.Acquired) result).handle().release())).isEqualTo(ReleaseResult.RELEASED);
			status.setRollbackOnly();
		});
		assertThat(jdbc().queryForObject("SELECT COUNT(*) FROM lockable_scratch WHERE id = ?", Integer.class,
				key("aware")))
			.as("the store committed nothing of the caller's transaction")
			.isZero();
		Stages.join(acquired(key("aware"), LONG_TTL).handle().release());
	}

	@Test
	void aLockTakenInsideACallersTransactionIsSeenByOthersBeforeItCommits() {
		TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
		transaction.executeWithoutResult((status) -> {
			jdbc().queryForList("SELECT lock_key FROM lockable_lock WHERE lock_key = ?", key("tx-visible"));
			LockHandle inside = acquired(key("tx-visible"), LONG_TTL).handle();
			held(key("tx-visible"), LONG_TTL);
			Stages.join(inside.release());
		});
	}

	@Test
	void listingEscapesTheWildcardsOfLike() {
		List<LockHandle> handles = List.of(acquired(key("a_b"), LONG_TTL).handle(),
				acquired(key("axb"), LONG_TTL).handle(), acquired(key("100%"), LONG_TTL).handle(),
				acquired(key("1000"), LONG_TTL).handle(), acquired(key("x!y"), LONG_TTL).handle(),
				acquired(key("x!!y"), LONG_TTL).handle());
		assertThat(keys(key("a_"))).containsExactly(key("a_b"));
		assertThat(keys(key("100%"))).containsExactly(key("100%"));
		assertThat(keys(key("x!y"))).containsExactly(key("x!y"));
		assertThat(keys(key("x!"))).containsExactly(key("x!!y"), key("x!y"));
		handles.forEach((handle) -> Stages.join(handle.release()));
	}

	private List<String> keys(String prefix) {
		return Stages.join(store().locks(prefix, 100)).locks().stream().map(StoredLock::key).toList();
	}

	@Test
	void aKeyWiderThanTheColumnFailsWithACode() {
		AcquireResult result = Stages.join(store().acquire(new LockRequest(key("w".repeat(600)), LONG_TTL)));
		assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class,
				(failed) -> assertThat(failed.cause().getCode()).isEqualTo("KEY_TOO_LONG"));
	}

	@Test
	void tableNameMustBeAnIdentifier() {
		for (String bad : List.of("", "lock table", "locks;drop table x", "a.b.c", "\"quoted\"", "1st")) {
			assertThatIllegalArgumentException().isThrownBy(() -> new JdbcLockStore(dataSource(), bad, Duration.ofSeconds(1)));
		}
	}

	@Test
	void healthSaysWhetherTheTableIsThere() {
		assertThat(((LockStoreHealth) store()).checkHealth().usable()).isTrue();
		LockStoreHealth.Status missing = new JdbcLockStore(dataSource(), "no_such_table", Duration.ofSeconds(2))
			.checkHealth();
		assertThat(missing.usable()).isFalse();
		assertThat(missing.details()).containsEntry("error", JdbcFailures.NO_TABLE);
		assertThat((String) missing.details().get("action")).startsWith("the table does not exist: set "
				+ "lockable.jdbc.initialize-schema=always and Lockable creates it at startup")
			.contains("io/github/lockable/store/jdbc/schema-" + ((LockStoreHealth) store()).checkHealth().details()
				.get("platform") + ".sql inside lockable-store-jdbc");
	}

	@Test
	void aMissingTableFailsTheAcquireWithACode() {
		JdbcLockStore store = new JdbcLockStore(dataSource(), "no_such_table", Duration.ofSeconds(2));
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key("no-table"), LONG_TTL)));
		assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class,
				(failed) -> {
					assertThat(failed.cause().getCode()).isEqualTo(JdbcFailures.NO_TABLE);
					assertThat(failed.cause()).hasMessageContaining(
							"the lock table no_such_table does not exist: set lockable.jdbc.initialize-schema=always");
				});
		assertThatThrownBy(() -> Stages.join(store.forceRelease(key("no-table"))))
			.isInstanceOfSatisfying(LockStoreException.class,
					(ex) -> assertThat(ex.getCode()).isEqualTo(JdbcFailures.NO_TABLE))
			.hasCauseInstanceOf(SQLException.class);
	}

	@Test
	void theScriptsTablePassesTheStartupCheckByItsNameAndQualified() {
		assertThat(JdbcLockStoreSchema.check((JdbcLockStore) store())).isNull();
		assertThat(JdbcLockStoreSchema.check(new JdbcLockStore(dataSource(), qualifier() + ".lockable_lock",
				Duration.ofSeconds(2)))).isNull();
	}

	@Test
	void theStartupCheckSaysHowToCreateAMissingTable() {
		String platform = (String) ((LockStoreHealth) store()).checkHealth().details().get("platform");
		JdbcLockStoreSchema.TableProblem missing = JdbcLockStoreSchema
			.check(new JdbcLockStore(dataSource(), "no_such_table", Duration.ofSeconds(2)));
		assertThat(missing).isNotNull();
		assertThat(missing.description()).startsWith("the lock table no_such_table does not exist: ")
			.contains("lockable.jdbc.initialize-schema=always")
			.contains("io/github/lockable/store/jdbc/schema-" + platform + ".sql");
		assertThat(missing.ddl()).startsWith("CREATE TABLE IF NOT EXISTS no_such_table (");
	}

	@Test
	void theStartupCheckFindsATableWithoutItsKeyByItsNameAndQualified() {
		jdbc().execute("DROP TABLE IF EXISTS unkeyed_lock");
		jdbc().execute("CREATE TABLE unkeyed_lock AS SELECT * FROM lockable_lock WHERE 1 = 0");
		try {
			for (String table : List.of("unkeyed_lock", qualifier() + ".unkeyed_lock")) {
				JdbcLockStoreSchema.TableProblem problem = JdbcLockStoreSchema
					.check(new JdbcLockStore(dataSource(), table, Duration.ofSeconds(2)));
				assertThat(problem).as(table).isNotNull();
				assertThat(problem.description()).as(table)
					.isEqualTo("the lock table " + table + " is not as Lockable's script creates it (lock_key is "
							+ "neither its primary key nor unique, so two callers could both insert one lock): alter "
							+ "it, or drop it and create it from io/github/lockable/store/jdbc/schema-"
							+ ((LockStoreHealth) store()).checkHealth().details().get("platform")
							+ ".sql inside lockable-store-jdbc (lockable.jdbc.initialize-schema=always leaves a table "
							+ "that exists as it is)");
			}
		}
		finally {
			jdbc().execute("DROP TABLE unkeyed_lock");
		}
	}

	/** The connection's own schema, or on MySQL and MariaDB its database, which qualifies a table. */
	private String qualifier() {
		return jdbc().execute((Connection connection) -> (connection.getSchema() != null) ? connection.getSchema()
				: connection.getCatalog());
	}

	/**
	 * 8 threads, 200 acquisitions each, on one key, each "acquire; if held, wait for the
	 * release; try again": never two holders at once, and every holder's fencing token is
	 * greater than the one of the holder before it.
	 */
	@Test
	void eightThreadsTakeOneKeyInTurnsWithIncreasingFencingTokens() throws Exception {
		String key = key("turns-fenced");
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicLong lastToken = new AtomicLong();
		AtomicInteger staleTokens = new AtomicInteger();
		AtomicInteger acquisitions = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				workers.add(pool.submit(() -> {
					for (int i = 0; i < 200; i++) {
						while (true) {
							AcquireResult result = Stages.join(store().acquire(new LockRequest(key, LONG_TTL)));
							if (result instanceof AcquireResult.Acquired acquired) {
								if (inside.incrementAndGet() != 1) {
									overlaps.incrementAndGet();
								}
								long token = acquired.handle().lease().fencingToken();
								if (token <= lastToken.getAndSet(token)) {
									staleTokens.incrementAndGet();
								}
								acquisitions.incrementAndGet();
								inside.decrementAndGet();
								assertThat(Stages.join(acquired.handle().release())).isEqualTo(ReleaseResult.RELEASED);
								break;
							}
							assertThat(result).isInstanceOf(AcquireResult.Held.class);
							store().awaitRelease(key, ((AcquireResult.Held) result).remainingTtl())
								.toCompletableFuture()
								.get(LONG_TTL.toSeconds(), TimeUnit.SECONDS);
						}
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(3, TimeUnit.MINUTES);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(overlaps.get()).as("overlapping holders").isZero();
		assertThat(staleTokens.get()).as("fencing tokens not above the previous holder's").isZero();
		assertThat(acquisitions.get()).isEqualTo(1600);
	}

	/**
	 * 8 callers let go at once on a key nobody has used (they race to insert its row) and on
	 * a key whose lock expired (they race to take its row over): in every round exactly one
	 * wins.
	 */
	@Test
	void ofCallersRacingForANewKeyOrAnExpiredLockExactlyOneWins() throws Exception {
		int callers = 8;
		ExecutorService pool = Executors.newFixedThreadPool(callers);
		try {
			for (int round = 0; round < 20; round++) {
				assertThat(winners(pool, callers, key("race-new-" + round))).as("winners of new key, round %d", round)
					.isOne();
				String expired = key("race-expired-" + round);
				acquired(expired, LONG_TTL);
				jdbc().update("UPDATE lockable_lock SET expires_at = " + databaseNow() + " - INTERVAL '1' SECOND "
						+ "WHERE lock_key = ?", expired);
				assertThat(winners(pool, callers, expired)).as("winners of expired lock, round %d", round).isOne();
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	private int winners(ExecutorService pool, int callers, String key) throws Exception {
		CyclicBarrier start = new CyclicBarrier(callers);
		List<Future<AcquireResult>> results = new ArrayList<>();
		for (int i = 0; i < callers; i++) {
			results.add(pool.submit(() -> {
				start.await(10, TimeUnit.SECONDS);
				return Stages.join(store().acquire(new LockRequest(key, LONG_TTL)));
			}));
		}
		int winners = 0;
		for (Future<AcquireResult> result : results) {
			AcquireResult answer = result.get(30, TimeUnit.SECONDS);
			assertThat(answer).isInstanceOfAny(AcquireResult.Acquired.class, AcquireResult.Held.class);
			winners += (answer instanceof AcquireResult.Acquired) ? 1 : 0;
		}
		return winners;
	}

	@Test
	void statementsBlockedByARowLockElsewhereFailWithinTheTimeout() throws Exception {
		LockHandle holder = acquired(key("row-locked"), LONG_TTL).handle();
		JdbcLockStore store = new JdbcLockStore(dataSource(), JdbcLockStore.DEFAULT_TABLE_NAME, Duration.ofSeconds(1));
		try (AutoCloseable blocker = rowLockedElsewhere(key("row-locked"))) {
			long start = System.nanoTime();
			AcquireResult result = Stages.join(store.acquire(new LockRequest(key("row-locked"), LONG_TTL)));
			assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class,
					(failed) -> assertThat(failed.cause().getCode()).isEqualTo(JdbcFailures.TIMEOUT));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
			assertThatThrownBy(() -> Stages.join(store.release(holder.lease())))
				.isInstanceOfSatisfying(LockStoreException.class,
						(ex) -> assertThat(ex.getCode()).isEqualTo(JdbcFailures.TIMEOUT));
		}
		assertThat(Stages.join(store.release(holder.lease()))).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void anAcquireThatLandsAfterItsTimeoutIsReleasedAgain() {
		SlowDataSource slow = new SlowDataSource(dataSource(), Duration.ofMillis(1500));
		JdbcLockStore store = new JdbcLockStore(slow, JdbcLockStore.DEFAULT_TABLE_NAME, Duration.ofSeconds(1));
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key("late"), LONG_TTL)));
		assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class, (failed) -> {
			assertThat(failed.cause().getCode()).isEqualTo(JdbcFailures.TIMEOUT);
			assertThat(failed.cause().getMessage()).contains(key("late"), "longer than its timeout");
		});
		assertThat(jdbc().queryForObject("SELECT COUNT(*) FROM lockable_lock WHERE lock_key = ?", Integer.class,
				key("late")))
			.as("the late acquire did insert its row")
			.isOne();
		Stages.join(acquired(key("late"), LONG_TTL).handle().release());
	}

	@Test
	void aCallerThatMustNotBlockHasItsStatementsRunElsewhere() {
		SlowDataSource recording = new SlowDataSource(dataSource(), Duration.ZERO);
		JdbcLockStore store = new JdbcLockStore(recording);
		LockRequest request = new LockRequest(key("event-loop"), LONG_TTL);
		AcquireResult result = Mono.defer(() -> Mono.fromCompletionStage(store.acquire(request)))
			.subscribeOn(Schedulers.parallel())
			.block(Duration.ofSeconds(10));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(recording.threads).singleElement().asString().startsWith("boundedElastic");
		Stages.join(((AcquireResult.Acquired) result).handle().release());
		assertThat(recording.threads).last().isEqualTo(Thread.currentThread().getName());
	}

	@Test
	void connectionsHandedOutWithoutAutoCommitStillCommitEveryStatement() {
		DataSource manual = new DelegatingDataSource(dataSource()) {

			@Override
			public Connection getConnection() throws SQLException {
				Connection connection = super.getConnection();
				connection.setAutoCommit(false);
				return connection;
			}

		};
		JdbcLockStore store = new JdbcLockStore(manual);
		LockHandle holder = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest(key("manual"), LONG_TTL))))
			.handle();
		held(key("manual"), LONG_TTL);
		assertThat(Stages.join(holder.release())).isEqualTo(ReleaseResult.RELEASED);
		Stages.join(acquired(key("manual"), LONG_TTL).handle().release());
	}

	@Test
	void aDataSourceThatThrowsUncheckedFailsTheCallsNotTheCaller() {
		DataSource broken = new DelegatingDataSource(dataSource()) {

			@Override
			public Connection getConnection() {
				throw new IllegalStateException("pool closed");
			}

		};
		JdbcLockStore store = new JdbcLockStore(broken);
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key("broken"), LONG_TTL)));
		assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class,
				(failed) -> assertThat(failed.cause()).hasMessageContaining("pool closed"));
		assertThat(store.forceRelease(key("broken")).toCompletableFuture()).isCompletedExceptionally();
		assertThat(store.checkHealth().usable()).isFalse();
	}

	/** Takes its time to hand out a connection, and notes the threads that asked. */
	static final class SlowDataSource extends DelegatingDataSource {

		final List<String> threads = new CopyOnWriteArrayList<>();

		private final Duration delay;

		SlowDataSource(DataSource target, Duration delay) {
			super(target);
			this.delay = delay;
		}

		@Override
		public Connection getConnection() throws SQLException {
			this.threads.add(Thread.currentThread().getName());
			if (!this.delay.isZero()) {
				try {
					// a pool slower than the store's timeout, not a wait for a condition
					Thread.sleep(this.delay.toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return super.getConnection();
		}

	}

	/** Holds the row lock of a key in a transaction of another connection, until closed. */
	protected final AutoCloseable rowLockedElsewhere(String key) throws SQLException {
		Connection connection = dataSource().getConnection();
		connection.setAutoCommit(false);
		try (PreparedStatement lock = connection
			.prepareStatement("UPDATE lockable_lock SET holder_method = holder_method WHERE lock_key = ?")) {
			lock.setString(1, key);
			assertThat(lock.executeUpdate()).isOne();
		}
		return () -> {
			connection.rollback();
			connection.close();
		};
	}

}
