package io.github.lockable.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.lockable.HeldLock;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockEvent;
import io.github.lockable.test.LockEvent.Outcome;
import io.github.lockable.test.LockableTestKit;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample tested the way its README shows, with the test kit: no Redis, no lock
 * directory (the memory store, although application.yml names the file store), no second
 * request racing the first: the kit holds the key.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "sample.report.initial-delay=1h")
class SampleKitTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private LockableTestKit locks;

	@Autowired
	private LockStore store;

	@Autowired
	private ProjectRepository projects;

	@Autowired
	private ReportJob report;

	@Test
	void archiveAnswers409WhileTheProjectIsLocked() throws Exception {
		assertThat(this.store.name()).isEqualTo("memory");
		UUID project = this.projects.save(new Project(null, "kit", false, null, null)).id();
		try (HeldLock held = this.locks.hold("project:" + project)) {
			HttpResponse<String> refused = archive(project);
			assertThat(refused.statusCode()).isEqualTo(409);
			assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(this.projects.findById(project)).hasValueSatisfying((saved) -> assertThat(saved.archived()).isFalse());
		}
		assertThat(archive(project).statusCode()).isEqualTo(200);
		assertThat(this.locks.events()).extracting(LockEvent::outcome)
			.containsExactly(Outcome.REFUSED, Outcome.ACQUIRED, Outcome.RELEASED);
	}

	@Test
	void theReportSkipsWhileAnotherInstanceRunsIt() throws Exception {
		int runs = this.report.runs();
		try (HeldLock held = this.locks.hold("report:daily")) {
			this.report.generate();
		}
		assertThat(this.report.runs()).isEqualTo(runs);
		assertThat(this.locks.events()).containsExactly(new LockEvent("report:daily", "ReportJob.generate()", Outcome.SKIPPED));
	}

	private HttpResponse<String> archive(UUID project) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/projects/" + project + "/archive"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
