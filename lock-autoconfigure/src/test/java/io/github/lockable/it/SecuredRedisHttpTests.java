package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.app.StoreWarmUp;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code @Lockable} HTTP flows on a Redis that logs clients in: every path that sends
 * a different command (acquire, refusal with the holder's TTL, release, a waiter woken by
 * the release's message, a release after expiry, a refused key). A subclass supplies the
 * server and the application's credentials through a {@code @DynamicPropertySource}.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "lockable.acquire-timeout=5s" })
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
abstract class SecuredRedisHttpTests extends GatedHttpTests {

	@Autowired
	private RecordingLockStore store;

	/**
	 * The server the application uses.
	 * @return the server
	 */
	abstract RedisTestServer redis();

	@BeforeEach
	void clean() {
		StoreWarmUp.awaitAnswering(this.store);
		this.gate.reset();
		this.store.clear();
	}

	@Test
	void lockedHandlerRunsAndReleasesAndAConcurrentCallConflicts() throws Exception {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		CompletableFuture<HttpResponse<String>> first = this.http.postAsync("/projects/" + project + "/archive");
		this.gate.awaitEntered("archive:" + project, 1);
		assertThat(redis().commands().get(key)).isEqualTo(this.store.acquired().get(0).token());
		HttpResponse<String> second = this.http.postAsync("/projects/" + project + "/archive").get(20, TimeUnit.SECONDS);
		assertThat(second.statusCode()).isEqualTo(409);
		assertThat(Long.parseLong(second.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 10L);
		this.gate.open("archive:" + project);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(redis().commands().exists(key)).isZero();
	}

	@Test
	void waiterIsWokenByTheReleaseNotByItsMaximumWait() throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = this.http.postAsync("/projects/" + project + "/queue");
		this.gate.awaitEntered("queue:" + project, 1);
		CompletableFuture<HttpResponse<String>> waiting = this.http.postAsync("/projects/" + project + "/queue");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.store.events().size() >= 2);
		long opened = System.nanoTime();
		this.gate.open("queue:" + project);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(waiting.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		// Without the release's message the waiter would sleep until its 15s wait ran out.
		assertThat(Duration.ofNanos(System.nanoTime() - opened)).isLessThan(Duration.ofSeconds(8));
		assertThat(this.gate.runs()).hasValue(2);
	}

	@Test
	void releaseAfterExpiryDeletesNothingAndIsReported(CapturedOutput output) throws Exception {
		UUID project = UUID.randomUUID();
		String key = "lock:project:" + project;
		CompletableFuture<HttpResponse<String>> late = this.http.postAsync("/short/" + project);
		this.gate.awaitEntered("short:1", 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> redis().commands().exists(key) == 0);
		this.gate.open("short:1");
		assertThat(late.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(output).contains("Lock " + key + " expired before release");
	}

	@Test
	void invalidKeyIsABadRequestWithoutAStoreCall() throws Exception {
		HttpResponse<String> response = this.http.postAsync("/raw/has%20space").get(20, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(this.store.events()).isEmpty();
	}

}
