package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application starts while nothing listens on its Redis port, answers 503 in time
 * meanwhile, and locks once a Redis starts on that port, without a restart.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "lockable.acquire-timeout=500ms", "spring.data.redis.timeout=5s",
				"spring.data.redis.connect-timeout=5s" })
@DirtiesContext
class RedisDownAtStartupHttpTests extends GatedHttpTests {

	private static final Logger logger = LoggerFactory.getLogger(RedisDownAtStartupHttpTests.class);

	private static final Duration BOUND = Duration.ofMillis(500 + 1500);

	/** Not started: the port is chosen, nothing listens on it. */
	@RegisterExtension
	static final ProcessRedisServer redis = ProcessRedisServer.createDedicated();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		redis.registerProperties(registry);
	}

	@Test
	void answersServiceUnavailableUntilRedisStartsThenLocks() throws Exception {
		assertThat(redis.isRunning()).isFalse();
		for (int i = 0; i < 3; i++) {
			long start = System.nanoTime();
			HttpResponse<String> response = post(UUID.randomUUID());
			assertThat(response.statusCode()).isEqualTo(503);
			assertThat(response.body()).contains("urn:lockable:problem:lock-store-unavailable");
			if (i > 0) {
				// The first request also starts the dispatcher servlet.
				assertThat(since(start)).isLessThan(BOUND);
			}
		}
		assertThat(this.gate.runs()).hasValue(0);

		redis.start();
		long started = System.nanoTime();
		List<Integer> statuses = new ArrayList<>();
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
			long attempt = System.nanoTime();
			int status = post(UUID.randomUUID()).statusCode();
			assertThat(since(attempt)).isLessThan(BOUND);
			statuses.add(status);
			return status == 200;
		});
		logger.info("Redis started late: locking {}ms after it started; answers meanwhile {}",
				since(started).toMillis(), statuses);
		assertThat(statuses).allSatisfy((status) -> assertThat(status).isIn(200, 503));
	}

	private HttpResponse<String> post(UUID project) throws Exception {
		this.gate.open("archive:" + project);
		return this.http.post("/projects/" + project + "/archive");
	}

	private static Duration since(long start) {
		return Duration.ofNanos(System.nanoTime() - start);
	}

}
