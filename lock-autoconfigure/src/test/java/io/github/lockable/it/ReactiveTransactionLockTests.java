package io.github.lockable.it;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.github.lockable.LockConflictException;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;
import io.github.lockable.test.app.ApplicationWithoutSecurity;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.reactive.TransactionalOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A {@code Mono} method called inside a reactive transaction its caller began holds its
 * lock until that transaction completes: a second caller cannot get in to read what the
 * first has not committed. R2DBC on H2, a real Redis, the real auto-configuration.
 */
@SpringBootTest(classes = ReactiveTransactionLockTests.ReactiveTransactionApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "lockable.store=redis")
class ReactiveTransactionLockTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Autowired
	private Items items;

	@Autowired
	private TransactionalOperator operator;

	@Autowired
	private ConnectionFactory connectionFactory;

	private final RedisTestServer redis = RedisTestServer.shared();

	private final String id = UUID.randomUUID().toString();

	private final Sinks.Empty<Void> gate = Sinks.empty();

	private final CompletableFuture<Void> entered = new CompletableFuture<>();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@BeforeEach
	void createTable() {
		Mono.usingWhen(this.connectionFactory.create(),
				(connection) -> Mono.from(connection.createStatement("CREATE TABLE IF NOT EXISTS item "
						+ "(id VARCHAR(64) PRIMARY KEY)").execute()).flatMap((result) -> Mono.from(result.getRowsUpdated())),
				Connection::close)
			.block(WAIT);
	}

	@Test
	void lockTakenInsideTheCallersTransactionIsHeldUntilItCommits() throws Exception {
		CompletableFuture<Void> caller = this.operator
			.transactional(this.items.insert(this.id).then(enteredThenGated()))
			.toFuture();
		this.entered.get(WAIT.toSeconds(), TimeUnit.SECONDS);

		// The Mono method completed; the transaction that holds its row has not committed.
		StepVerifier.create(this.items.count(this.id)).expectError(LockConflictException.class).verify(WAIT);
		assertThat(countOnAnotherConnection()).as("the uncommitted row, seen from another connection").isZero();
		assertThat(lockHeld()).as("lock while the caller's transaction is open").isTrue();

		this.gate.tryEmitEmpty();
		caller.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		await().atMost(WAIT).until(() -> !lockHeld());
		StepVerifier.create(this.items.count(this.id)).expectNext(1L).verifyComplete();
	}

	@Test
	void lockTakenInsideTheCallersTransactionIsHeldUntilItRollsBack() throws Exception {
		CompletableFuture<Void> caller = this.operator
			.transactional(this.items.insert(this.id)
				.then(enteredThenGated())
				.then(Mono.<Void>error(new IllegalStateException("the caller fails after the locked call"))))
			.toFuture();
		this.entered.get(WAIT.toSeconds(), TimeUnit.SECONDS);

		assertThat(lockHeld()).isTrue();
		StepVerifier.create(this.items.count(this.id)).expectError(LockConflictException.class).verify(WAIT);

		this.gate.tryEmitEmpty();
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> caller.get(WAIT.toSeconds(), TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class);
		await().atMost(WAIT).until(() -> !lockHeld());
		StepVerifier.create(this.items.count(this.id)).as("the rolled back row").expectNext(0L).verifyComplete();
	}

	@Test
	void locksOfTwoCallsJoinedInOneTransactionAreBothHeldUntilItCommits() throws Exception {
		String other = UUID.randomUUID().toString();
		CompletableFuture<Void> caller = this.operator
			.transactional(Mono.when(this.items.insert(this.id), this.items.insert(other)).then(enteredThenGated()))
			.toFuture();
		this.entered.get(WAIT.toSeconds(), TimeUnit.SECONDS);

		StepVerifier.create(this.items.count(this.id)).expectError(LockConflictException.class).verify(WAIT);
		StepVerifier.create(this.items.count(other)).expectError(LockConflictException.class).verify(WAIT);

		this.gate.tryEmitEmpty();
		caller.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		await().atMost(WAIT).until(() -> !lockHeld() && !lockHeld(other));
		StepVerifier.create(this.items.count(other)).expectNext(1L).verifyComplete();
	}

	@Test
	void cancelledCallerReleasesOnceItsTransactionRolledBack() throws Exception {
		Disposable caller = this.operator.transactional(this.items.insert(this.id).then(enteredThenGated()))
			.subscribe();
		this.entered.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		StepVerifier.create(this.items.count(this.id)).expectError(LockConflictException.class).verify(WAIT);

		caller.dispose();
		await().atMost(WAIT).until(() -> !lockHeld());
		StepVerifier.create(this.items.count(this.id)).as("the rolled back row").expectNext(0L).verifyComplete();
	}

	@Test
	void cancelledCallerWhoseLockedWorkStillRunsHoldsTheLockUntilThatWorkEnds() {
		Sinks.Empty<Void> work = Sinks.empty();
		Disposable caller = this.operator.transactional(this.items.hold(this.id, work.asMono())).subscribe();
		await().atMost(WAIT).until(this::lockHeld);

		// The transaction rolls back now; the locked work it started runs on.
		caller.dispose();
		StepVerifier.create(this.items.count(this.id)).expectError(LockConflictException.class).verify(WAIT);
		assertThat(lockHeld()).isTrue();

		work.tryEmitEmpty();
		await().atMost(WAIT).until(() -> !lockHeld());
		StepVerifier.create(this.items.count(this.id)).expectNext(0L).verifyComplete();
	}

	@Test
	void monoWithoutCallerTransactionReleasesWhenItCompletes() {
		StepVerifier.create(this.items.insert(this.id)).verifyComplete();

		assertThat(lockHeld()).as("lock once the Mono completed").isFalse();
		assertThat(countOnAnotherConnection()).isOne();
	}

	@Test
	void transactionBegunInsideTheCallCommitsBeforeTheLockIsReleased() throws Exception {
		CompletableFuture<Void> call = this.items.insertInOwnTransaction(this.id, enteredThenGated()).toFuture();
		this.entered.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		StepVerifier.create(this.items.count(this.id)).expectError(LockConflictException.class).verify(WAIT);

		this.gate.tryEmitEmpty();
		call.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		// Completed: committed and released, in that order.
		assertThat(lockHeld()).isFalse();
		assertThat(countOnAnotherConnection()).isOne();
	}

	private Mono<Void> enteredThenGated() {
		return Mono.fromRunnable(() -> this.entered.complete(null)).then(this.gate.asMono());
	}

	private boolean lockHeld() {
		return lockHeld(this.id);
	}

	private boolean lockHeld(String item) {
		return this.redis.commands().exists("lock:item:" + item) == 1;
	}

	/** What a reader outside the caller's transaction sees. */
	private long countOnAnotherConnection() {
		Long count = Mono.usingWhen(this.connectionFactory.create(),
				(connection) -> Flux.from(connection.createStatement("SELECT COUNT(*) FROM item WHERE id = $1")
					.bind("$1", this.id)
					.execute()).flatMap((result) -> result.map((row, metadata) -> row.get(0, Long.class))).next(),
				Connection::close)
			.block(WAIT);
		return (count != null) ? count : -1;
	}

	@ApplicationWithoutSecurity
	static class ReactiveTransactionApplication {

		/** Built here rather than by Boot, whose R2DBC auto-configuration moved between Boot 3 and 4. */
		@Bean
		ConnectionFactory connectionFactory() {
			return H2ConnectionFactory.inMemory("lockable-reactive-" + UUID.randomUUID());
		}

		@Bean
		R2dbcTransactionManager transactionManager(ConnectionFactory connectionFactory) {
			return new R2dbcTransactionManager(connectionFactory);
		}

		@Bean
		TransactionalOperator transactionalOperator(ReactiveTransactionManager transactionManager) {
			return TransactionalOperator.create(transactionManager);
		}

		@Bean
		LockKeyResolver item() {
			return (invocation) -> "item:" + invocation.argument("id", String.class);
		}

		@Bean
		Items items(ConnectionFactory connectionFactory) {
			return new Items(DatabaseClient.create(connectionFactory));
		}

	}

	static class Items {

		private final DatabaseClient client;

		Items(DatabaseClient client) {
			this.client = client;
		}

		@Lockable(resolver = "item")
		public Mono<Void> insert(String id) {
			return insertRow(id);
		}

		@Lockable(resolver = "item")
		@Transactional
		public Mono<Void> insertInOwnTransaction(String id, Mono<Void> afterInsert) {
			return insertRow(id).then(afterInsert);
		}

		private Mono<Void> insertRow(String id) {
			return this.client.sql("INSERT INTO item (id) VALUES (:id)").bind("id", id).then();
		}

		@Lockable(resolver = "item")
		public Mono<Void> hold(String id, Mono<Void> work) {
			return work;
		}

		@Lockable(resolver = "item")
		public Mono<Long> count(String id) {
			return this.client.sql("SELECT COUNT(*) AS n FROM item WHERE id = :id")
				.bind("id", id)
				.map((row) -> row.get("n", Long.class))
				.one();
		}

	}

}
