package io.github.lockable.it;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.redis.CommandStats;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis failing under a running application, end to end over HTTP, on a redis-server of the
 * test's own: stopped while a handler holds its lock, and frozen ({@code SIGSTOP}) while
 * requests acquire. The handler's caller always gets an answer in time, no request thread
 * stays in the store, and locking resumes with Redis without restarting the application.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "lockable.acquire-timeout=500ms",
				// Lettuce's own bounds stay far above the acquire timeout: the test proves Lockable's.
				"spring.data.redis.timeout=20s", "spring.data.redis.connect-timeout=20s" })
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext
class RedisOutageHttpTests extends GatedHttpTests {

	private static final Logger logger = LoggerFactory.getLogger(RedisOutageHttpTests.class);

	/** The acquire timeout, with slack for a loaded two-core machine; far below Lettuce's 20 s. */
	private static final Duration BOUND = Duration.ofMillis(500 + 4500);

	private static final int REQUESTS = 6;


	@RegisterExtension
	static final ProcessRedisServer redis = ProcessRedisServer.startDedicated();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		redis.registerProperties(registry);
	}

	@Test
	void redisStoppedMidHoldThenBackWithAnEmptyScriptCache(CapturedOutput output) throws Exception {
		assertArchived(UUID.randomUUID());
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> holder = post(project);
		this.gate.awaitEntered("archive:" + project, 1);
		String token = redis.commands().get("lock:project:" + project);
		assertThat(token).isNotBlank();

		redis.stop();
		long released = System.nanoTime();
		this.gate.open("archive:" + project);
		HttpResponse<String> response = holder.get(30, TimeUnit.SECONDS);
		Duration answered = since(released);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("archived");
		assertThat(answered).isLessThan(BOUND);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> output.getOut().contains("Failed to release lock lock:project:" + project));
		assertThat(output.getOut()).contains(" WARN ");
		assertThat(output.toString()).doesNotContain(token);

		// A new process on the same port: no lock, no script. The application is not restarted.
		redis.start();
		long started = System.nanoTime();
		List<Integer> statuses = new ArrayList<>();
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
			UUID next = UUID.randomUUID();
			this.gate.open("archive:" + next);
			long attempt = System.nanoTime();
			int status = post(next).get(30, TimeUnit.SECONDS).statusCode();
			assertThat(since(attempt)).isLessThan(BOUND);
			statuses.add(status);
			return status == 200;
		});
		logger.info("Redis restarted: locking again after {}ms; answers meanwhile {}", since(started).toMillis(),
				statuses);
		assertThat(statuses).allSatisfy((status) -> assertThat(status).isIn(200, 503));
		String errors = redis.commands().info("errorstats");
		assertThat(errors).as("EVALSHA answered NOSCRIPT").contains("errorstat_NOSCRIPT");
		assertThat(CommandStats.calls(redis, "eval")).as("then EVAL ran").isPositive();
	}

	@Test
	void redisFrozenAtAcquireIsServiceUnavailableInTimeAndLeavesNoLock() throws Exception {
		assertArchived(UUID.randomUUID());
		long commandsBefore = acquiresAndReleases();
		int runsBefore = this.gate.runs().get();

		redis.freeze();
		List<UUID> projects = new ArrayList<>();
		List<CompletableFuture<Duration>> responses = new ArrayList<>();
		long start = System.nanoTime();
		for (int i = 0; i < REQUESTS; i++) {
			UUID project = UUID.randomUUID();
			projects.add(project);
			this.gate.open("archive:" + project);
			responses.add(post(project).thenApply((response) -> {
				assertThat(response.statusCode()).isEqualTo(503);
				assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
				return since(start);
			}));
		}
		List<Duration> elapsed = new ArrayList<>();
		for (CompletableFuture<Duration> response : responses) {
			elapsed.add(response.get(30, TimeUnit.SECONDS));
		}
		logger.info("Redis frozen: {} requests answered 503 after {}", REQUESTS, elapsed);
		assertThat(elapsed).allSatisfy((duration) -> assertThat(duration).isLessThan(BOUND));
		assertThat(requestThreadsInLockable()).isEmpty();
		assertThat(this.gate.runs()).hasValue(runsBefore);

		// Redis runs what it received meanwhile: each acquire (a plain SET NX PX) takes its lock,
		// and the release (a script) queued behind it on the same connection deletes it.
		redis.thaw();
		long thawed = System.nanoTime();
		await().atMost(Duration.ofSeconds(10)).until(() -> acquiresAndReleases() >= commandsBefore + 2L * REQUESTS);
		for (UUID project : projects) {
			await().atMost(Duration.ofSeconds(5)).until(() -> redis.commands().exists("lock:project:" + project) == 0);
		}
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
			UUID next = UUID.randomUUID();
			this.gate.open("archive:" + next);
			return post(next).get(30, TimeUnit.SECONDS).statusCode() == 200;
		});
		logger.info("Redis thawed: locking again after {}ms", since(thawed).toMillis());
	}

	private static long acquiresAndReleases() {
		return CommandStats.calls(redis, "set", "evalsha");
	}

	/** Request threads with a frame of Lockable's on their stack. */
	private static List<String> requestThreadsInLockable() {
		List<String> found = new ArrayList<>();
		for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
			if (thread.getThreadName().startsWith("http-nio-") && Arrays.stream(thread.getStackTrace())
				.anyMatch((frame) -> frame.getClassName().startsWith("io.github.lockable."))) {
				found.add(thread.getThreadName() + " " + Arrays.toString(thread.getStackTrace()));
			}
		}
		return found;
	}

	private void assertArchived(UUID project) throws Exception {
		this.gate.open("archive:" + project);
		// The first request starts the dispatcher servlet and may wait for the first connection.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> post(project).get(30, TimeUnit.SECONDS).statusCode() == 200);
	}

	private CompletableFuture<HttpResponse<String>> post(UUID project) {
		return this.http.postAsync("/projects/" + project + "/archive");
	}

	private static Duration since(long start) {
		return Duration.ofNanos(System.nanoTime() - start);
	}

}
