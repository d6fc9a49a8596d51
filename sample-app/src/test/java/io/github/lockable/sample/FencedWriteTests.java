package io.github.lockable.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.server.ResponseStatusException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The sample's fenced write against a real Redis: a holder whose lock ran out before it
 * wrote cannot overwrite what the next holder wrote.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "sample.report.initial-delay=1h" })
class FencedWriteTests {

	@Autowired
	private LockTemplate locks;

	@Autowired
	private ProjectService service;

	@Autowired
	private ProjectRepository projects;

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void holderThatOutlivedItsLockIsRefusedByTheWrite() {
		UUID project = this.projects.save(new Project(null, "original", false, null, null)).id();
		String key = "project:" + project;
		// The first holder's lock runs out while it still works (a long pause, say).
		HeldLock stale = this.locks.tryLock(key, Duration.ofMillis(200)).orElseThrow();
		long staleToken = stale.fencingToken();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.locks.tryLock(key, Duration.ofSeconds(10)).map((next) -> {
			try (next) {
				this.service.rename(project, "written by the next holder", next.fencingToken());
				assertThat(next.fencingToken()).isGreaterThan(staleToken);
				return true;
			}
		}).orElse(false));
		assertThatExceptionOfType(ResponseStatusException.class)
			.isThrownBy(() -> this.service.rename(project, "written by the stale holder", staleToken))
			.satisfies((ex) -> assertThat(ex.getStatusCode().value()).isEqualTo(409));
		stale.close();
		assertThat(this.projects.findById(project)).hasValueSatisfying(
				(saved) -> assertThat(saved.name()).isEqualTo("written by the next holder"));
	}

	@Test
	void renameThroughHttpWritesWithTheLocksToken() throws Exception {
		UUID project = this.projects.save(new Project(null, "before", false, null, null)).id();
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/projects/" + project + "/name"))
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"after\"}"))
				.timeout(Duration.ofSeconds(30))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(204);
		assertThat(this.projects.findById(project)).hasValueSatisfying((saved) -> assertThat(saved.name()).isEqualTo("after"));
	}

}
