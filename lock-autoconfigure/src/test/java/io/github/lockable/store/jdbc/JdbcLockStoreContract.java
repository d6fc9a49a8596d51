package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

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
		jdbc().update("UPDATE lockable_lock SET expires_at = CURRENT_TIMESTAMP - INTERVAL '1' SECOND WHERE lock_key = ?",
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
		jdbc().update("UPDATE lockable_lock SET expires_at = CURRENT_TIMESTAMP + INTERVAL '3' SECOND WHERE lock_key = ?",
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
	}

	@Test
	void aMissingTableFailsTheAcquireWithACode() {
		JdbcLockStore store = new JdbcLockStore(dataSource(), "no_such_table", Duration.ofSeconds(2));
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key("no-table"), LONG_TTL)));
		assertThat(result).isInstanceOfSatisfying(AcquireResult.Failed.class,
				(failed) -> assertThat(failed.cause().getCode()).isEqualTo(JdbcFailures.NO_TABLE));
		assertThatThrownBy(() -> Stages.join(store.forceRelease(key("no-table"))))
			.isInstanceOfSatisfying(LockStoreException.class,
					(ex) -> assertThat(ex.getCode()).isEqualTo(JdbcFailures.NO_TABLE))
			.hasCauseInstanceOf(SQLException.class);
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
