package io.github.lockable.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample against a real Redis: every policy answers as the README shows.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "sample.work.duration=2s", "sample.report.initial-delay=1h" })
class SampleApplicationTests {

	private static final String DEMO_PROJECT = "7f5c2b4e-3d1a-4c8e-9a6b-1e2f3a4b5c6d";

	private final HttpClient http = HttpClient.newHttpClient();

	private final RedisTestServer redis = RedisTestServer.shared();

	@LocalServerPort
	private int port;

	@Autowired
	private ProjectRepository projects;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void secondArchiveOfTheSameProjectConflicts() throws Exception {
		UUID project = this.projects.save(new Project(null, "conflict", false, null, null)).id();
		String path = "/projects/" + project + "/archive";
		CompletableFuture<HttpResponse<String>> first = post(path);
		awaitLock("lockable-sample:project:" + project);
		HttpResponse<String> second = post(path).get(20, TimeUnit.SECONDS);
		assertThat(second.statusCode()).isEqualTo(409);
		assertThat(second.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(second.headers().firstValue("Retry-After")).isPresent();
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(this.projects.findById(project)).hasValueSatisfying((saved) -> assertThat(saved.archived()).isTrue());
	}

	@Test
	void rebuildWhileRebuildingIsLocked() throws Exception {
		CompletableFuture<HttpResponse<String>> first = post("/admin/rebuild-index");
		awaitLock("lockable-sample:admin:rebuild-index");
		assertThat(post("/admin/rebuild-index").get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(423);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
	}

	@Test
	void secondExportOfTheSameUserIsTooManyRequests() throws Exception {
		String user = UUID.randomUUID().toString();
		CompletableFuture<HttpResponse<String>> first = post("/me/exports", "X-User-Id", user);
		awaitLock("lockable-sample:user:" + user);
		assertThat(post("/me/exports", "X-User-Id", user).get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(429);
		// Another user is not held up.
		assertThat(post("/me/exports", "X-User-Id", UUID.randomUUID().toString()).get(20, TimeUnit.SECONDS)
			.statusCode()).isEqualTo(200);
		assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
	}

	@Test
	void exportWithoutAValidUserIsABadRequest() throws Exception {
		HttpResponse<String> response = post("/me/exports", "X-User-Id", "not-a-uuid").get(20, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("invalid-lock-key").doesNotContain("not-a-uuid");
	}

	@Test
	void demoProjectExists() {
		assertThat(this.projects.findById(UUID.fromString(DEMO_PROJECT))).isPresent();
	}

	private void awaitLock(String key) {
		await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.commands().exists(key) == 1);
	}

	private CompletableFuture<HttpResponse<String>> post(String path, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.POST(HttpRequest.BodyPublishers.noBody())
			.timeout(Duration.ofSeconds(30));
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return this.http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
