package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

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
 * Lettuce's command timeout ({@code spring.data.redis.timeout}) shorter than
 * {@code lockable.acquire-timeout}, and a Redis that is slow for a moment ({@code CLIENT
 * PAUSE}), end to end over HTTP: the request during the pause gets 503 and the log line
 * names Lettuce's timeout; the acquire that Redis runs after the pause is deleted again, so
 * the next request for the same key runs instead of getting 409 for the lock's whole TTL.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "spring.data.redis.timeout=200ms", "lockable.acquire-timeout=5s",
				// Far longer than every wait of the test: a lock left behind cannot go unnoticed.
				"lockable.default-ttl=60s" })
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext
class LettuceTimeoutHttpTests extends GatedHttpTests {

	/** Longer than Lettuce's timeout, far shorter than the TTL. */
	private static final Duration PAUSE = Duration.ofSeconds(2);

	private static final Duration AWAIT = Duration.ofSeconds(30);


	@RegisterExtension
	static final ProcessRedisServer redis = ProcessRedisServer.startDedicated();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		redis.registerProperties(registry);
	}

	@Test
	void blockingHandler(CapturedOutput output) throws Exception {
		assertTimeoutNamedAndLateLockDeleted(output, "Endpoints.raw(String)", (id) -> "/raw/late-" + id,
				(id) -> "lock:late-" + id);
	}

	@Test
	void futureReturningHandler(CapturedOutput output) throws Exception {
		assertTimeoutNamedAndLateLockDeleted(output, "Endpoints.future(UUID)", (id) -> {
			this.gate.open("future:" + id);
			return "/future/" + id;
		}, (id) -> "lock:project:" + id);
	}

	@Test
	void monoReturningHandler(CapturedOutput output) throws Exception {
		assertTimeoutNamedAndLateLockDeleted(output, "Endpoints.mono(UUID)", (id) -> {
			this.gate.open("mono:" + id);
			return "/mono/" + id;
		}, (id) -> "lock:project:" + id);
	}

	private void assertTimeoutNamedAndLateLockDeleted(CapturedOutput output, String method, Path path, Key key)
			throws Exception {
		// The first request starts the dispatcher servlet and may wait for the first connection.
		await().atMost(AWAIT).until(() -> send(path.of(UUID.randomUUID())).statusCode() == 200);
		UUID id = UUID.randomUUID();
		long scriptsBefore = scriptCalls();

		redis.pause(PAUSE);
		HttpResponse<String> during = send(path.of(id));
		assertThat(during.statusCode()).isEqualTo(503);
		assertThat(during.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(during.body()).contains("urn:lockable:problem:lock-store-unavailable");
		assertThat(output.getOut()).contains(method + " not run: lock store redis failed to acquire " + key.of(id)
				+ " (TIMEOUT: Redis did not answer within Lettuce's command timeout, 200ms "
				+ "(spring.data.redis.timeout))")
			.doesNotContain("STORE_ERROR");

		// Redis runs the acquire once the pause ends, and the release queued behind it.
		await().atMost(AWAIT).until(() -> scriptCalls() > scriptsBefore);
		await().atMost(AWAIT).until(() -> redis.commands().exists(key.of(id)) == 0);
		AtomicReference<HttpResponse<String>> after = new AtomicReference<>();
		// Lettuce's 200ms may still fail a request on a loaded machine; a 409 never passes.
		await().atMost(AWAIT).until(() -> {
			after.set(send(path.of(id)));
			return after.get().statusCode() != 503;
		});
		assertThat(after.get().statusCode()).isEqualTo(200);
	}

	private HttpResponse<String> send(String path) throws Exception {
		String method = path.startsWith("/raw/") ? "POST" : "GET";
		return this.http.send(method, path);
	}

	/** Scripts Redis ran: the acquire scripts and the releases. */
	private static long scriptCalls() {
		return CommandStats.calls(redis, "evalsha", "eval");
	}

	@FunctionalInterface
	private interface Path {

		String of(UUID id);

	}

	@FunctionalInterface
	private interface Key {

		String of(UUID id);

	}

}
