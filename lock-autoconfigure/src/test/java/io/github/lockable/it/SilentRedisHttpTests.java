package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.redis.SilentRedisServer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis that accepts connections and never answers, from the application's first
 * request on: every request at once gets 503 within about {@code lockable.acquire-timeout},
 * opening the connection included, instead of queueing behind Lettuce's timeouts.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "lockable.acquire-timeout=500ms",
				// Lettuce's own bounds stay far above the acquire timeout: the test proves Lockable's.
				"spring.data.redis.timeout=10s", "spring.data.redis.connect-timeout=10s" })
@DirtiesContext
class SilentRedisHttpTests extends GatedHttpTests {

	private static final int REQUESTS = 8;

	@RegisterExtension
	static final SilentRedisServer silent = SilentRedisServer.start();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", silent::host);
		registry.add("spring.data.redis.port", silent::port);
	}

	@Test
	void concurrentRequestsAreServiceUnavailableWithinTheAcquireTimeout() throws Exception {
		// The dispatcher servlet starts on the first request; that is not what this test times.
		assertThat(this.http.sendAsync("GET", "/plain").get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

		List<CompletableFuture<TimedResponse>> responses = new ArrayList<>();
		long start = System.nanoTime();
		for (int i = 0; i < REQUESTS; i++) {
			responses.add(this.http.sendAsync("POST", "/projects/" + UUID.randomUUID() + "/archive")
				.thenApply((response) -> new TimedResponse(response, Duration.ofNanos(System.nanoTime() - start))));
		}
		for (CompletableFuture<TimedResponse> future : responses) {
			TimedResponse timed = future.get(30, TimeUnit.SECONDS);
			HttpResponse<String> response = timed.response();
			assertThat(response.statusCode()).isEqualTo(503);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(response.body()).contains("urn:lockable:problem:lock-store-unavailable");
			assertThat(timed.elapsed()).isLessThan(Duration.ofSeconds(3));
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
		assertThat(this.gate.runs()).hasValue(0);
	}

	private record TimedResponse(HttpResponse<String> response, Duration elapsed) {
	}

}
