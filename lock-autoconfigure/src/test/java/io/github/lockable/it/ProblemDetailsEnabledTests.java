package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same problem responses when the application also turned on Spring MVC's own problem
 * details.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "spring.mvc.problemdetails.enabled=true" })
class ProblemDetailsEnabledTests extends GatedHttpTests {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void conflictIsStillALockableProblem() throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = this.http.postAsync("/projects/" + project + "/archive");
		this.gate.awaitEntered("archive:" + project, 1);
		HttpResponse<String> conflict = this.http.postAsync("/projects/" + project + "/archive").get(20, TimeUnit.SECONDS);
		assertThat(conflict.statusCode()).isEqualTo(409);
		assertThat(conflict.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(conflict.headers().firstValue("Retry-After")).isPresent();
		assertThat(conflict.body()).contains("\"type\":\"urn:lockable:problem:lock-conflict\"")
			.contains("\"retryable\":true");
		this.gate.open("archive:" + project);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
	}

	@Test
	void invalidKeyIsStillALockableProblem() throws Exception {
		HttpResponse<String> response = this.http.postAsync("/raw/" + "y".repeat(300)).get(20, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"type\":\"urn:lockable:problem:invalid-lock-key\"")
			.contains("\"retryable\":false");
	}

}
