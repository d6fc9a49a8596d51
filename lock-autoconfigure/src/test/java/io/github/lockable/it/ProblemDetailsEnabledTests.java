package io.github.lockable.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same problem responses when the application also turned on Spring MVC's own problem
 * details.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.mvc.problemdetails.enabled=true")
class ProblemDetailsEnabledTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private Gate gate;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.registerConnectionProperties(registry);
	}

	@AfterEach
	void openGates() {
		this.gate.reset();
	}

	@Test
	void conflictIsStillALockableProblem() throws Exception {
		UUID project = UUID.randomUUID();
		CompletableFuture<HttpResponse<String>> first = post("/projects/" + project + "/archive");
		this.gate.awaitEntered("archive:" + project, 1);
		HttpResponse<String> conflict = post("/projects/" + project + "/archive").get(20, TimeUnit.SECONDS);
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
		HttpResponse<String> response = post("/raw/" + "y".repeat(300)).get(20, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"type\":\"urn:lockable:problem:invalid-lock-key\"")
			.contains("\"retryable\":false");
	}

	private CompletableFuture<HttpResponse<String>> post(String path) {
		return this.http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.POST(HttpRequest.BodyPublishers.noBody())
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
