package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockContext;
import io.github.lockable.Lockable;
import io.github.lockable.store.jdbc.JdbcLockStoreSchema;
import io.github.lockable.test.app.Gate;
import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.app.LockableWebApplication.OrderDesk;
import io.github.lockable.test.app.LockableWebApplication.Orders;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.jdbc.PostgresTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The end-to-end tests with the application's locks in the JDBC store on a real
 * PostgreSQL, on the application's own {@code DataSource}, the one its transactions use;
 * plus what only a store in the application's database can get wrong: joining a
 * transaction. The test reads the lock table on connections of its own, never the
 * application's, so it sees only what the store committed.
 */
@SpringBootTest(classes = { LockableWebApplication.class, JdbcLockableHttpTests.JdbcEndpoints.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=jdbc", "lockable.jdbc.initialize-schema=always" })
class JdbcLockableHttpTests extends LockableHttpTests {

	private static final String DATABASE = "lockable_http_tests";

	private static final String TABLE = "lockable_lock";

	private final JdbcTemplate table = new JdbcTemplate(ownConnections());

	@Autowired
	private DataSource applicationDataSource;

	@Autowired
	private RecordingLockStore recording;

	@Autowired
	private Orders orderBook;

	@Autowired
	private OrderDesk orderDesk;

	@Autowired
	private SkippingJob skippingJob;

	private Connection tableLock;

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		PostgresTestServer server = PostgresTestServer.shared();
		server.createDatabase(DATABASE);
		registry.add("spring.datasource.url", () -> server.jdbcUrl(DATABASE));
		registry.add("spring.datasource.username", () -> PostgresTestServer.USER);
	}

	/** A connection per call, outside the application's pool and transactions. */
	private static DataSource ownConnections() {
		PostgresTestServer server = PostgresTestServer.shared();
		server.createDatabase(DATABASE);
		return new DriverManagerDataSource(server.jdbcUrl(DATABASE), PostgresTestServer.USER, "");
	}

	@Override
	protected boolean held(String key) {
		return this.table.queryForObject(
				"select count(*) from " + TABLE + " where lock_key = ? and expires_at > current_timestamp", Integer.class,
				key) == 1;
	}

	@Override
	protected String holderToken(String key) {
		List<String> tokens = this.table.queryForList(
				"select token from " + TABLE + " where lock_key = ? and expires_at > current_timestamp", String.class,
				key);
		return tokens.isEmpty() ? null : tokens.get(0);
	}

	/** Every acquire that reaches the table adds a row or raises a fencing token. */
	@Override
	protected long storeCalls() {
		return this.table.queryForObject("select count(*) + coalesce(sum(fencing_token), 0) from " + TABLE,
				Long.class);
	}

	/**
	 * Takes the table's {@code ACCESS EXCLUSIVE} lock in a transaction left open, so that
	 * every statement of the store waits; PostgreSQL ends the session after the duration.
	 */
	@Override
	protected void pauseStore(Duration duration) {
		try {
			this.tableLock = ownConnections().getConnection();
			try (Statement statement = this.tableLock.createStatement()) {
				statement.execute("set idle_in_transaction_session_timeout = " + duration.toMillis());
				this.tableLock.setAutoCommit(false);
				statement.execute("lock table " + TABLE + " in access exclusive mode");
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	protected void recoverStore() {
		if (this.tableLock != null) {
			try (Connection connection = this.tableLock) {
				connection.rollback();
			}
			catch (SQLException ex) {
				// ended by PostgreSQL already
			}
			this.tableLock = null;
		}
	}

	@Test
	void lockRowIsCommittedBeforeTheHandlersTransactionAndFreedAfterItsRollback() throws Exception {
		String id = "bad-" + UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> call = this.http.sendAsync("POST", "/jdbc/orders/" + id);
		this.gate.awaitEntered("jdbc-order:" + id, 1);
		// Inside the handler's open transaction: its insert is not visible to another
		// connection, the lock is (committed on a connection of the store's own).
		assertThat(countOrders(id)).as("the handler's uncommitted order").isZero();
		assertThat(held("lock:jdbc-orders")).as("lock visible while the transaction is open").isTrue();
		this.gate.open("jdbc-order:" + id);
		assertThat(call.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(422);
		assertThat(countOrders(id)).as("the rolled back order").isZero();
		assertThat(held("lock:jdbc-orders")).as("lock after the rollback").isFalse();
		assertThat(this.recording.events()).containsExactly("acquire lock:jdbc-orders", "rolled back",
				"release lock:jdbc-orders");
	}

	@Test
	void lockRowIsFreedAfterTheHandlersCommit() throws Exception {
		String id = "good-" + UUID.randomUUID();
		this.gate.open("jdbc-order:" + id);
		assertThat(this.http.send("POST", "/jdbc/orders/" + id).statusCode()).isEqualTo(200);
		assertThat(countOrders(id)).isOne();
		assertThat(held("lock:jdbc-orders")).isFalse();
		assertThat(this.recording.events()).containsExactly("acquire lock:jdbc-orders", "committed",
				"release lock:jdbc-orders");
	}

	@Test
	void callersRollbackNeverUndoesTheLockOrItsRelease() {
		String id = "bad-" + UUID.randomUUID();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.orderDesk.placeAndThen(id,
				() -> assertThat(held("lock:orders-joined")).as("lock taken inside the caller's open transaction, "
						+ "seen from another connection").isTrue()));
		assertThat(this.orderBook.exists(id)).isFalse();
		assertThat(held("lock:orders-joined")).as("lock after the caller's rollback").isFalse();
		List<String> events = this.recording.events();
		assertThat(events).first().isEqualTo("acquire lock:orders-joined in transaction");
		assertThat(events.subList(events.indexOf("rolled back") + 1, events.size())).singleElement()
			.asString()
			.startsWith("release lock:orders-joined");
		// The released row stays, with its fencing token, expired.
		assertThat(this.table.queryForObject("select fencing_token from " + TABLE + " where lock_key = ?", Long.class,
				"lock:orders-joined")).isPositive();
	}

	@Test
	void fencingTokensIncreaseAcrossCallsAndAreTheTables() throws Exception {
		List<Long> tokens = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> response = this.http.send("POST", "/jdbc/fence");
			assertThat(response.statusCode()).isEqualTo(200);
			long token = Long.parseLong(response.body());
			assertThat(this.table.queryForObject("select fencing_token from " + TABLE + " where lock_key = ?",
					Long.class, "lock:jdbc-fence")).isEqualTo(token);
			tokens.add(token);
		}
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		assertThat(tokens.get(0)).isPositive();
	}

	@Test
	void jobIsSkippedWhileTheLockIsHeld() throws Exception {
		assertThat(this.skippingJob.run()).isEqualTo("ran");
		CompletableFuture<HttpResponse<String>> holder = this.http.sendAsync("POST", "/jdbc/job");
		this.gate.awaitEntered("jdbc-job", 1);
		int runs = this.gate.runs().get();
		assertThat(this.skippingJob.run()).isNull();
		assertThat(this.gate.runs()).hasValue(runs);
		this.gate.open("jdbc-job");
		assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(this.skippingJob.run()).isEqualTo("ran");
	}

	@Test
	void waiterGetsTheLockWhenTheHolderReleasesWithinItsWait() throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = this.http.sendAsync("POST", "/projects/" + project + "/queue");
		this.gate.awaitEntered("queue:" + project, 1);
		CompletableFuture<HttpResponse<String>> second = this.http.sendAsync("POST", "/projects/" + project + "/queue");
		// The second waits (waitTime 15s) instead of answering 409, and does not get in beside the first.
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
			.until(() -> !second.isDone() && this.gate.entered("queue:" + project) == 1);
		long opened = System.nanoTime();
		this.gate.open("queue:" + project);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(second.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(Duration.ofNanos(System.nanoTime() - opened)).as("hand-over after the release")
			.isLessThan(Duration.ofSeconds(10));
		assertThat(this.gate.runs()).hasValue(2);
		assertThat(held("lock:project:" + project)).isFalse();
	}

	@Test
	void droppedTableIsServiceUnavailable() throws Exception {
		UUID project = UUID.randomUUID();
		this.gate.open("archive:" + project);
		this.table.execute("drop table " + TABLE);
		try {
			long start = System.nanoTime();
			HttpResponse<String> response = this.http.send("POST", "/projects/" + project + "/archive");
			assertThat(response.statusCode()).isEqualTo(503);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
			assertThat(this.gate.runs()).hasValue(0);
		}
		finally {
			JdbcLockStoreSchema.create(this.applicationDataSource, TABLE);
		}
		assertThat(this.http.send("POST", "/projects/" + project + "/archive").statusCode()).isEqualTo(200);
	}

	private int countOrders(String id) {
		return this.table.queryForObject("select count(*) from orders where id = ?", Integer.class, id);
	}

	/** Endpoints of these tests only, beside the web application's. */
	@Configuration(proxyBeanMethods = false)
	static class JdbcEndpoints {

		@Bean
		JdbcController jdbcController(Gate gate, JdbcTemplate jdbc, RecordingLockStore timeline) {
			return new JdbcController(gate, jdbc, timeline.events());
		}

		@Bean
		SkippingJob skippingJob() {
			return new SkippingJob();
		}

	}

	@RestController
	static class JdbcController {

		private final Gate gate;

		private final JdbcTemplate jdbc;

		private final List<String> timeline;

		JdbcController(Gate gate, JdbcTemplate jdbc, List<String> timeline) {
			this.gate = gate;
			this.jdbc = jdbc;
			this.timeline = timeline;
		}

		/** Writes on the application's data source, the store's, in a transaction inside the lock. */
		@PostMapping("/jdbc/orders/{id}")
		@Lockable(key = "jdbc-orders", ttl = "20s")
		@Transactional
		public String order(@PathVariable String id) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCompletion(int status) {
					JdbcController.this.timeline.add((status == STATUS_COMMITTED) ? "committed" : "rolled back");
				}
			});
			this.jdbc.update("insert into orders (id) values (?)", id);
			this.gate.pass("jdbc-order:" + id);
			if (id.startsWith("bad")) {
				throw new ResponseStatusException(HttpStatus.UNPROCESSABLE_ENTITY, "refused order");
			}
			return "placed";
		}

		@PostMapping("/jdbc/fence")
		@Lockable(key = "jdbc-fence", ttl = "10s")
		public long fence() {
			return LockContext.current().orElseThrow().fencingToken();
		}

		@PostMapping("/jdbc/job")
		@Lockable(key = "jdbc-job", ttl = "20s")
		public String holdJob() {
			this.gate.runs().incrementAndGet();
			this.gate.pass("jdbc-job");
			return "held";
		}

	}

	/** A scheduled job's shape: skipped while another caller holds its lock. */
	static class SkippingJob {

		@Lockable(key = "jdbc-job", ttl = "20s", conflictPolicy = ConflictPolicy.SKIP)
		public String run() {
			return "ran";
		}

	}

}
