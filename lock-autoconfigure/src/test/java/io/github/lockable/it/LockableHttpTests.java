package io.github.lockable.it;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.github.lockable.LockConflictException;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.test.Stages;
import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.app.LockableWebApplication.AsyncJobs;
import io.github.lockable.test.app.LockableWebApplication.Orders;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.redis.CommandStats;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.RedisTopology;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Lockable end to end: real HTTP into a real application, locks in a real Redis. A
 * subclass may lock elsewhere: it sets {@code lockable.store} and overrides the hooks that
 * read the store ({@link #held}, {@link #holderToken}, {@link #storeCalls}) and make it fail
 * ({@link #pauseStore}, {@link #recoverStore}).
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "lockable.store=redis")
@ExtendWith(OutputCaptureExtension.class)
class LockableHttpTests extends GatedHttpTests {

	private static final ObjectMapper json = new ObjectMapper();

	@Autowired
	private RecordingLockStore store;

	@Autowired
	private Orders orders;

	@Autowired
	private AsyncJobs asyncJobs;

	private final RedisTopology redis = topology();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	/**
	 * The Redis deployment the application locks on; a subclass that changes it registers
	 * its properties too.
	 * @return the deployment
	 */
	protected RedisTopology topology() {
		return RedisTestServer.shared();
	}

	@BeforeEach
	void clean() {
		this.gate.reset();
		awaitStoreAnswers();
		this.store.clear();
	}

	/**
	 * Opening the store's first connection can take longer than the acquire timeout on a
	 * loaded machine (a Sentinel deployment: the sentinels, then the master), and the
	 * tests are about what follows: each begins once a lock can be taken and released.
	 */
	private void awaitStoreAnswers() {
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
			LockRequest request = new LockRequest("lock:warm-up:" + UUID.randomUUID(), Duration.ofSeconds(10));
			if (Stages.join(this.store.acquire(request)) instanceof AcquireResult.Acquired acquired) {
				Stages.join(acquired.handle().release());
				return true;
			}
			return false;
		});
	}

	@AfterEach
	void recover() {
		this.gate.reset();
		recoverStore();
	}

	@Test
	void handlerWithoutLockableNeverTouchesTheStore() throws Exception {
		long storeCallsBefore = storeCalls();
		HttpResponse<String> response = this.http.send("GET", "/plain");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("plain");
		assertThat(this.store.events()).isEmpty();
		assertThat(storeCalls()).isEqualTo(storeCallsBefore);
	}

	@Test
	void lockedHandlerRunsOnceAndReleases() throws Exception {
		UUID project = UUID.randomUUID();
		this.gate.open("archive:" + project);
		HttpResponse<String> response = this.http.send("POST", "/projects/" + project + "/archive");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("archived");
		assertThat(this.gate.runs()).hasValue(1);
		assertThat(this.store.events()).containsExactly("acquire lock:project:" + project,
				"release lock:project:" + project);
		assertThat(held("lock:project:" + project)).isFalse();
	}

	@Test
	void parallelRequestsOnOneKeyRunOnceAndTheRestConflict() throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = this.http.sendAsync("POST", "/projects/" + project + "/archive");
		this.gate.awaitEntered("archive:" + project, 1);

		List<CompletableFuture<HttpResponse<String>>> others = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			others.add(this.http.sendAsync("POST", "/projects/" + project + "/archive"));
		}
		for (CompletableFuture<HttpResponse<String>> other : others) {
			HttpResponse<String> response = other.get(20, TimeUnit.SECONDS);
			assertProblem(response, 409, "urn:lockable:problem:lock-conflict", "Conflict", true);
			long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
			assertThat(retryAfter).isBetween(1L, 10L);
			// Spring fills "instance" with the request's own path; nothing else may name the resource.
			Map<String, Object> body = problemBody(response);
			body.remove("instance");
			assertThat(body.toString()).doesNotContain(project.toString()).doesNotContain("lock:");
		}
		assertThat(this.gate.runs()).hasValue(1);

		this.gate.open("archive:" + project);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(this.gate.runs()).hasValue(1);
		assertThat(held("lock:project:" + project)).isFalse();
	}

	@Test
	void differentKeysRunInParallel() throws Exception {
		UUID one = UUID.randomUUID();
		UUID two = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = this.http.sendAsync("POST", "/projects/" + one + "/archive");
		CompletableFuture<HttpResponse<String>> second = this.http.sendAsync("POST", "/projects/" + two + "/archive");
		// Both are inside their critical sections at the same time.
		this.gate.awaitEntered("archive:" + one, 1);
		this.gate.awaitEntered("archive:" + two, 1);
		this.gate.open("archive:" + one);
		this.gate.open("archive:" + two);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(second.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
	}

	@Test
	void globalOperationAnswersLocked() throws Exception {
		CompletableFuture<HttpResponse<String>> first = this.http.sendAsync("POST", "/admin/rebuild-index");
		this.gate.awaitEntered("rebuild", 1);
		HttpResponse<String> second = this.http.send("POST", "/admin/rebuild-index");
		assertProblem(second, 423, "urn:lockable:problem:lock-locked", "Locked", true);
		assertThat(Long.parseLong(second.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 20L);
		this.gate.open("rebuild");
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
	}

	@Test
	void perUserOperationAnswersTooManyRequests() throws Exception {
		String user = UUID.randomUUID().toString();
		CompletableFuture<HttpResponse<String>> first = this.http.sendAsync("POST", "/me/export", "X-User", user);
		this.gate.awaitEntered("export", 1);
		HttpResponse<String> second = this.http.send("POST", "/me/export", "X-User", user);
		assertProblem(second, 429, "urn:lockable:problem:lock-too-many-requests", "Too Many Requests", true);
		assertThat(second.body()).doesNotContain(user);
		this.gate.open("export");
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
	}

	@Test
	void handlerExceptionReleasesAndReachesTheClientUnchanged() throws Exception {
		UUID project = UUID.randomUUID();
		HttpResponse<String> response = this.http.send("POST", "/projects/" + project + "/fail");
		assertThat(response.statusCode()).isEqualTo(418);
		assertThat(held("lock:project:" + project)).isFalse();
		assertThat(this.http.send("POST", "/projects/" + project + "/fail").statusCode()).isEqualTo(418);
		assertThat(this.gate.runs()).hasValue(2);
		assertThat(this.store.events()).containsExactly("acquire lock:project:" + project,
				"release lock:project:" + project, "acquire lock:project:" + project,
				"release lock:project:" + project);
	}

	@Test
	void releaseGetsExactlyTheTokenAcquireSet() throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> call = this.http.sendAsync("POST", "/projects/" + project + "/archive");
		this.gate.awaitEntered("archive:" + project, 1);
		String tokenInRedis = holderToken("lock:project:" + project);
		assertThat(tokenInRedis).isNotBlank();
		this.gate.open("archive:" + project);
		assertThat(call.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(this.store.released()).extracting(LockLease::token).containsExactly(tokenInRedis);
		assertThat(this.store.acquired()).extracting(LockLease::token).containsExactly(tokenInRedis);
	}

	@Test
	void lateReleaseAfterTtlExpiryLeavesTheNewHoldersLock(CapturedOutput output) throws Exception {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		CompletableFuture<HttpResponse<String>> late = this.http.sendAsync("POST", "/short/" + project);
		this.gate.awaitEntered("short:1", 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> !held(key));

		// The next holder's lock (30s) outlives the steps below however busy the machine.
		CompletableFuture<HttpResponse<String>> next = this.http.sendAsync("POST", "/long/" + project);
		this.gate.awaitEntered("long:2", 1);
		String nextToken = holderToken(key);
		assertThat(nextToken).isNotNull();

		this.gate.open("short:1");
		assertThat(late.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(holderToken(key)).as("the next holder's lock").isEqualTo(nextToken);
		assertThat(output).contains("Lock " + key + " expired before release: TTL shorter than the work");
		this.gate.open("long:2");
		assertThat(next.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(this.store.released()).hasSize(2);
	}

	@Test
	void transactionCommitsBeforeTheLockIsReleased() throws Exception {
		int before = this.orders.count();
		String id = UUID.randomUUID().toString();
		assertThat(this.http.send("POST", "/orders/" + id).statusCode()).isEqualTo(200);
		assertThat(this.store.events()).containsExactly("acquire lock:orders", "transaction active: true", "committed",
				"release lock:orders");
		assertThat(this.orders.count()).isEqualTo(before + 1);
	}

	@Test
	void transactionRollsBackBeforeTheLockIsReleased() throws Exception {
		int before = this.orders.count();
		assertThat(this.http.send("POST", "/orders/bad-" + UUID.randomUUID()).statusCode()).isEqualTo(500);
		assertThat(this.store.events()).containsExactly("acquire lock:orders", "transaction active: true",
				"rolled back", "release lock:orders");
		assertThat(this.orders.count()).isEqualTo(before);
	}

	@Test
	void invalidResolvedKeyIsABadRequestWithoutAStoreCall(CapturedOutput output) throws Exception {
		String tooLong = "x".repeat(201);
		for (String value : List.of(tooLong, "has%20space", "plus+sign", "caf%C3%A9", "%7Bhash%7D")) {
			HttpResponse<String> response = this.http.send("POST", "/raw/" + value);
			assertProblem(response, 400, "urn:lockable:problem:invalid-lock-key", "Bad Request", false);
			assertThat(response.headers().firstValue("Retry-After")).isEmpty();
		}
		assertThat(this.store.events()).isEmpty();
		assertThat(this.gate.runs()).hasValue(0);
		assertThat(output).contains("The lock key from resolver 'raw'")
			.contains("is 201 characters long, more than the 200 allowed")
			.doesNotContain(tooLong)
			.doesNotContain("plus+sign")
			.doesNotContain("café")
			.doesNotContain("has space");
	}

	@Test
	void argumentValidationHappensBeforeTheLock() throws Exception {
		UUID project = UUID.randomUUID();
		HttpResponse<String> invalid = this.http.sendBody("POST", "/projects/" + project + "/comments", "application/json",
				"{\"text\":\"\"}");
		assertThat(invalid.statusCode()).isEqualTo(400);
		assertThat(this.store.events()).isEmpty();
		HttpResponse<String> valid = this.http.sendBody("POST", "/projects/" + project + "/comments", "application/json",
				"{\"text\":\"hello\"}");
		assertThat(valid.statusCode()).isEqualTo(200);
		assertThat(this.store.events()).hasSize(2);
	}

	@ParameterizedTest
	@ValueSource(strings = { "future", "mono" })
	void asynchronousResultHoldsTheLockUntilItCompletes(String kind) throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = this.http.sendAsync("GET", "/" + kind + "/" + project);
		this.gate.awaitEntered(kind + ":" + project, 1);
		HttpResponse<String> second = this.http.send("GET", "/" + kind + "/" + project);
		assertProblem(second, 409, "urn:lockable:problem:lock-conflict", "Conflict", true);
		this.gate.open(kind + ":" + project);
		HttpResponse<String> done = first.get(20, TimeUnit.SECONDS);
		assertThat(done.statusCode()).isEqualTo(200);
		assertThat(done.body()).isEqualTo(kind);
		// The release is awaited before the result completes: the key is gone already.
		assertThat(held("lock:project:" + project)).isFalse();
	}

	@Test
	void futureConflictsAndSkipsWhileItsWorkRuns() {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> first = this.asyncJobs.future(project, work);
		await().atMost(Duration.ofSeconds(10)).until(() -> held(key));

		CompletableFuture<String> second = this.asyncJobs.future(project, new CompletableFuture<>());
		assertThatExceptionOfType(CompletionException.class).isThrownBy(second::join)
			.withCauseInstanceOf(LockConflictException.class);
		CompletionStageAssert.skipped(this.asyncJobs.skippingFuture(project, new CompletableFuture<>()));
		assertThat(this.gate.runs()).hasValue(1);

		work.complete("done");
		assertThat(first.join()).isEqualTo("done");
		assertThat(held(key)).isFalse();
	}

	@Test
	void futureCompletesOnlyAfterTheRelease() {
		UUID project = UUID.randomUUID();
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> call = this.asyncJobs.future(project, work);
		work.complete("done");
		assertThat(call.join()).isEqualTo("done");
		assertThat(this.store.events()).containsExactly("acquire lock:project:" + project,
				"release lock:project:" + project);
		assertThat(held("lock:project:" + project)).isFalse();
	}

	@Test
	void monoLocksPerSubscription() {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		Sinks.One<String> work = Sinks.one();
		Mono<String> mono = this.asyncJobs.mono(project, work.asMono());
		// Assembled but not subscribed: nothing is held.
		assertThat(held(key)).isFalse();
		assertThat(this.store.events()).isEmpty();

		StepVerifier.create(mono)
			.then(() -> await().atMost(Duration.ofSeconds(10)).until(() -> held(key)))
			.then(() -> StepVerifier.create(this.asyncJobs.mono(project, Mono.just("second")))
				.expectError(LockConflictException.class)
				.verify(Duration.ofSeconds(10)))
			.then(() -> StepVerifier.create(this.asyncJobs.skippingMono(project, Mono.just("skipped")))
				.expectComplete()
				.verify(Duration.ofSeconds(10)))
			.then(() -> work.tryEmitValue("done"))
			.expectNext("done")
			.expectComplete()
			.verify(Duration.ofSeconds(10));
		assertThat(held(key)).isFalse();
		StepVerifier.create(this.asyncJobs.mono(project, Mono.just("again"))).expectNext("again").verifyComplete();
	}

	@Test
	void storeOutageIsServiceUnavailableWithinTheTimeout() throws Exception {
		UUID project = UUID.randomUUID();
		this.gate.open("archive:" + project);
		pauseStore(Duration.ofSeconds(5));
		long start = System.nanoTime();
		HttpResponse<String> response = this.http.send("POST", "/projects/" + project + "/archive");
		Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
		assertProblem(response, 503, "urn:lockable:problem:lock-store-unavailable", "Service Unavailable", true);
		assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
		// lockable.acquire-timeout is 2s here; the request never hangs on the paused server.
		assertThat(elapsed).isLessThan(Duration.ofSeconds(4));
		assertThat(this.gate.runs()).hasValue(0);
	}

	@Test
	void tokensNeverAppearInResponsesOrLogs(CapturedOutput output) throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = this.http.sendAsync("POST", "/projects/" + project + "/archive");
		this.gate.awaitEntered("archive:" + project, 1);
		String token = holderToken("lock:project:" + project);
		HttpResponse<String> conflict = this.http.send("POST", "/projects/" + project + "/archive");
		this.gate.open("archive:" + project);
		HttpResponse<String> done = first.get(20, TimeUnit.SECONDS);
		assertThat(token).isNotBlank();
		assertThat(conflict.body()).doesNotContain(token);
		assertThat(conflict.headers().map().toString()).doesNotContain(token);
		assertThat(done.body()).doesNotContain(token);
		assertThat(output).doesNotContain(token);
		for (LockLease lease : this.store.acquired()) {
			assertThat(output).doesNotContain(lease.token());
		}
	}

	/**
	 * Whether the store holds a live lock on a full key.
	 * @param key the full key
	 * @return whether it is held
	 */
	protected boolean held(String key) {
		return this.redis.commands().exists(key) == 1;
	}

	/**
	 * The token of the live lock on a full key, read from the store.
	 * @param key the full key
	 * @return the token, or {@code null} if the key is not held
	 */
	protected String holderToken(String key) {
		return this.redis.commands().get(key);
	}

	/**
	 * Makes the store stop answering for a while; {@link #recoverStore()} ends it early.
	 * @param duration how long at most
	 */
	protected void pauseStore(Duration duration) {
		this.redis.pause(duration);
	}

	/** Ends what {@link #pauseStore(Duration)} began, if anything. */
	protected void recoverStore() {
		this.redis.recover();
	}

	/**
	 * A figure that grows with every call that reaches the store's server.
	 * @return the figure
	 */
	protected long storeCalls() {
		return CommandStats.calls(this.redis, "evalsha", "eval");
	}

	private void assertProblem(HttpResponse<String> response, int status, String type, String title,
			boolean retryable) throws IOException {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		Map<String, Object> body = problemBody(response);
		assertThat(body).containsEntry("type", type)
			.containsEntry("title", title)
			.containsEntry("status", status)
			.containsEntry("retryable", retryable)
			.containsKey("detail");
		if (retryable) {
			assertThat(response.headers().firstValue("Retry-After")).isPresent();
		}
	}

	private static Map<String, Object> problemBody(HttpResponse<String> response) throws IOException {
		return json.readValue(response.body(), new TypeReference<Map<String, Object>>() {
		});
	}

	private static final class CompletionStageAssert {

		static void skipped(java.util.concurrent.CompletionStage<String> stage) {
			assertThat(stage.toCompletableFuture().join()).isNull();
		}

	}

}
