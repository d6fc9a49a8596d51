package io.github.lockable.store.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.Stages;
import io.github.lockable.test.jdbc.JdbcTestDatabases;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two stores on one PostgreSQL database, as two instances of an application: a release by
 * one wakes the waiters of the other through {@code LISTEN}/{@code NOTIFY}. The waiting
 * store polls at most once a minute while it listens, so that a wait of 30 seconds that
 * ends within 20 was woken by a notification, whatever the load of the machine; the
 * notifications that woke a waiter are counted too.
 */
class PostgresJdbcLockNotificationTests {

	private static final Duration LONG_TTL = Duration.ofMinutes(2);

	private static final Duration LONG_WAIT = Duration.ofSeconds(30);

	private static final Duration WOKEN_WITHIN = Duration.ofSeconds(20);

	private static HikariDataSource dataSource;

	private final List<JdbcLockStore> stores = new ArrayList<>();

	@BeforeAll
	static void createDatabase() {
		dataSource = JdbcTestDatabases.postgres("notifications");
	}

	@AfterAll
	static void closeDatabase() {
		if (dataSource != null) {
			dataSource.close();
		}
	}

	@AfterEach
	void closeStores() {
		this.stores.forEach(JdbcLockStore::close);
	}

	@Test
	void aReleaseByOneStoreWakesTheWaiterOfAnother() {
		JdbcLockStore holder = store(ReleaseNotifications.LINGER);
		JdbcLockStore waiter = store(ReleaseNotifications.LINGER);
		LockLease lease = hold(holder, "released-elsewhere");
		CompletableFuture<Void> wait = listeningWait(waiter, "released-elsewhere");
		long wakes = notifications(waiter).wakes();
		AtomicReference<String> continuedOn = new AtomicReference<>();
		CompletableFuture<Void> continued = wait.thenRun(() -> continuedOn.set(Thread.currentThread().getName()));

		assertThat(Stages.join(holder.release(lease))).isEqualTo(ReleaseResult.RELEASED);

		await().atMost(WOKEN_WITHIN).until(continued::isDone);
		assertThat(notifications(waiter).wakes()).isEqualTo(wakes + 1);
		// the caller's next acquire runs there: never on the listening thread
		assertThat(continuedOn.get()).doesNotStartWith("lockable-jdbc-listen").isNotEqualTo("main");
		assertThat(Stages.join(waiter.acquire(new LockRequest("released-elsewhere", LONG_TTL))))
			.isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void aForceReleaseWakesTheWaiterOfAnother() {
		JdbcLockStore holder = store(ReleaseNotifications.LINGER);
		JdbcLockStore waiter = store(ReleaseNotifications.LINGER);
		hold(holder, "forced-elsewhere");
		CompletableFuture<Void> wait = listeningWait(waiter, "forced-elsewhere");
		long wakes = notifications(waiter).wakes();

		assertThat(Stages.join(holder.forceRelease("forced-elsewhere"))).isTrue();

		await().atMost(WOKEN_WITHIN).until(wait::isDone);
		assertThat(notifications(waiter).wakes()).isEqualTo(wakes + 1);
	}

	@Test
	void aKeyOfQuotesAndUnicodeArrivesIntact() {
		String key = "it's-\"quoted\"-\\-–-ключ-✓-🔒";
		JdbcLockStore holder = store(ReleaseNotifications.LINGER);
		JdbcLockStore waiter = store(ReleaseNotifications.LINGER);
		LockLease lease = hold(holder, key);
		CompletableFuture<Void> wait = listeningWait(waiter, key);
		long wakes = notifications(waiter).wakes();

		Stages.join(holder.release(lease));

		// a waiter is woken only by its exact key
		await().atMost(WOKEN_WITHIN).until(wait::isDone);
		assertThat(notifications(waiter).wakes()).isEqualTo(wakes + 1);
	}

	@Test
	void theListeningConnectionIsOpenOnlyWhileSomebodyWaitsAndALingerAfter() {
		JdbcLockStore holder = store(ReleaseNotifications.LINGER);
		JdbcLockStore waiter = store(Duration.ofSeconds(5));
		LockLease lease = hold(holder, "linger");
		Stages.join(waiter.acquire(new LockRequest("linger", LONG_TTL)));
		assertThat(listeningBackends()).isZero();
		assertThat(notifications(waiter).listening()).isFalse();

		CompletableFuture<Void> wait = listeningWait(waiter, "linger");
		assertThat(listeningBackends()).isEqualTo(1);
		Stages.join(holder.release(lease));
		await().atMost(WOKEN_WITHIN).until(wait::isDone);

		// still there for the caller's next round, then given back
		assertThat(notifications(waiter).listening()).isTrue();
		await().atMost(Duration.ofSeconds(30)).until(() -> listeningBackends() == 0);
		assertThat(notifications(waiter).listening()).isFalse();
	}

	@Test
	void waitersPollWhenTheListeningConnectionIsKilledAndALaterWaitListensAgain() throws Exception {
		JdbcLockStore holder = store(ReleaseNotifications.LINGER);
		JdbcLockStore waiter = store(ReleaseNotifications.LINGER);
		LockLease lease = hold(holder, "killed");
		CompletableFuture<Void> wait = listeningWait(waiter, "killed");

		assertThat(jdbc().queryForList("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = ?",
				Boolean.class, listenStatement())).containsExactly(true);

		// woken at once, to poll from here on
		await().atMost(WOKEN_WITHIN).until(wait::isDone);
		CompletableFuture<Boolean> acquired = CompletableFuture.supplyAsync(() -> acquireWaiting(waiter, "killed"));
		Stages.join(holder.release(lease));
		assertThat(acquired.get(WOKEN_WITHIN.toSeconds(), TimeUnit.SECONDS)).isTrue();

		await().atMost(Duration.ofSeconds(30)).until(() -> {
			Stages.join(waiter.awaitRelease("killed-other", Duration.ofMillis(50)));
			return notifications(waiter).listening();
		});
		assertThat(listeningBackends()).isEqualTo(1);
	}

	@Test
	void closeWakesTheWaitersAndGivesTheConnectionBack() {
		JdbcLockStore holder = store(ReleaseNotifications.LINGER);
		JdbcLockStore waiter = store(ReleaseNotifications.LINGER);
		hold(holder, "closing");
		CompletableFuture<Void> wait = listeningWait(waiter, "closing");

		waiter.close();

		// completed on the store's wake threads, a moment later
		await().atMost(WOKEN_WITHIN).until(wait::isDone);
		assertThat(notifications(waiter).listening()).isFalse();
		assertThat(listeningBackends()).isZero();
	}

	@Test
	void channelNamesAreIdentifiersOfPostgres() {
		assertThat(ReleaseChannel.name("lockable_lock")).isEqualTo("lockable_lock_released");
		assertThat(ReleaseChannel.name("Locks.Lockable_Lock")).isEqualTo("locks_lockable_lock_released");
		String longest = "s".repeat(63) + "." + "t".repeat(63);
		String other = "s".repeat(63) + "." + "t".repeat(62) + "u";
		assertThat(ReleaseChannel.name(longest)).hasSizeLessThanOrEqualTo(ReleaseChannel.MAX_LENGTH)
			.matches("[a-z0-9_]+_released")
			.isNotEqualTo(ReleaseChannel.name(other));
	}

	@Test
	void aStoreThatDoesNotListenPollsAndTakesNoConnectionToWait() {
		JdbcLockStore holder = store(ReleaseNotifications.LINGER);
		JdbcLockStore waiter = new JdbcLockStore(dataSource, JdbcLockStore.DEFAULT_TABLE_NAME, Duration.ofSeconds(5),
				false);
		this.stores.add(waiter);
		LockLease lease = hold(holder, "not-listening");
		assertThat(waiter.notifications()).isNull();
		for (int round = 0; round < 5; round++) {
			assertThat(Stages.join(waiter.acquire(new LockRequest("not-listening", LONG_TTL))))
				.isInstanceOf(AcquireResult.Held.class);
			long before = System.nanoTime();
			Stages.join(waiter.awaitRelease("not-listening", LONG_WAIT));
			// the back-off's sleep, never the long wait
			assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(WOKEN_WITHIN);
			assertThat(listeningBackends()).isZero();
		}
		// its own releases still notify, for the instances that listen
		JdbcLockStore listener = store(ReleaseNotifications.LINGER);
		CompletableFuture<Void> wait = listeningWait(listener, "not-listening");
		Stages.join(holder.release(lease));
		LockLease own = hold(waiter, "not-listening");
		await().atMost(WOKEN_WITHIN).until(wait::isDone);
		CompletableFuture<Void> next = listeningWait(listener, "not-listening");
		long wakes = notifications(listener).wakes();
		Stages.join(waiter.release(own));
		await().atMost(WOKEN_WITHIN).until(next::isDone);
		assertThat(notifications(listener).wakes()).isEqualTo(wakes + 1);
	}

	@Test
	void anH2StoreNeitherListensNorNotifies() {
		try (HikariDataSource h2 = JdbcTestDatabases.h2()) {
			JdbcLockStore store = new JdbcLockStore(h2);
			this.stores.add(store);
			AcquireResult held = Stages.join(store.acquire(new LockRequest("h2", LONG_TTL)));
			Stages.join(store.acquire(new LockRequest("h2", LONG_TTL)));
			long before = System.nanoTime();
			Stages.join(store.awaitRelease("h2", LONG_WAIT));
			// the back-off's first sleep, never the long wait
			assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(WOKEN_WITHIN);
			assertThat(notifications(store).listening()).isFalse();
			assertThat(Thread.getAllStackTraces().keySet())
				.noneMatch((thread) -> thread.getName().startsWith("lockable-jdbc-listen"));
			assertThat(Stages.join(((AcquireResult.Acquired) held).handle().release()))
				.isEqualTo(ReleaseResult.RELEASED);
		}
	}

	/** A store that polls at most once a minute while it listens. */
	private JdbcLockStore store(Duration linger) {
		JdbcLockStore store = new JdbcLockStore(dataSource, JdbcLockStore.DEFAULT_TABLE_NAME, Duration.ofSeconds(5),
				Duration.ofMinutes(1), linger);
		this.stores.add(store);
		return store;
	}

	private static LockLease hold(JdbcLockStore store, String key) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, LONG_TTL)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle().lease();
	}

	/**
	 * A wait of {@link #LONG_WAIT} that only a notification ends sooner: the store's first
	 * waits poll while its connection opens, so short waits come first until it listens.
	 */
	private static CompletableFuture<Void> listeningWait(JdbcLockStore store, String key) {
		assertThat(Stages.join(store.acquire(new LockRequest(key, LONG_TTL)))).isInstanceOf(AcquireResult.Held.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			Stages.join(store.awaitRelease(key, Duration.ofMillis(50)));
			return notifications(store).listening();
		});
		CompletableFuture<Void> wait = store.awaitRelease(key, LONG_WAIT).toCompletableFuture();
		assertThat(wait).isNotDone();
		return wait;
	}

	/** As the lock manager waits: acquire, and after each refusal wait for a release. */
	private static boolean acquireWaiting(JdbcLockStore store, String key) {
		long deadline = System.nanoTime() + LONG_WAIT.toNanos();
		while (System.nanoTime() < deadline) {
			if (Stages.join(store.acquire(new LockRequest(key, LONG_TTL))) instanceof AcquireResult.Acquired) {
				return true;
			}
			Stages.join(store.awaitRelease(key, LONG_WAIT));
		}
		return false;
	}

	private static ReleaseNotifications notifications(JdbcLockStore store) {
		ReleaseNotifications notifications = store.notifications();
		assertThat(notifications).isNotNull();
		return notifications;
	}

	private static String listenStatement() {
		return new ReleaseChannel(JdbcLockStore.DEFAULT_TABLE_NAME).listen();
	}

	/** Backends whose last statement was the store's LISTEN: listening now (a connection given back ran UNLISTEN). */
	private int listeningBackends() {
		Integer count = jdbc().queryForObject(
				"SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query = ?", Integer.class,
				listenStatement());
		return (count != null) ? count : 0;
	}

	private static JdbcTemplate jdbc() {
		return new JdbcTemplate(dataSource);
	}

}
