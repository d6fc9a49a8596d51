package io.github.lockable.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample as the README starts it, on the file store (not the test kit's memory store),
 * on a machine where its lock directory does not exist yet: health is UP before the first
 * lock, the start logs no warning and no stack trace, and the {@code lockable} endpoint is
 * exposed as the README's quick start exposes it.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=file", "sample.report.initial-delay=1h",
			"management.endpoint.health.show-details=always" })
class SampleHealthTests {

	@TempDir
	static Path temp;

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void lockDirectory(DynamicPropertyRegistry registry) {
		registry.add("lockable.file.directory", () -> temp.resolve("not-created-yet").toString());
	}

	@Test
	void theLockableEndpointIsExposedAsTheReadmeShows() throws Exception {
		HttpResponse<String> lockable = get("/actuator/lockable");
		assertThat(lockable.statusCode()).as(lockable.body()).isEqualTo(200);
		assertThat(JsonPath.<String>read(lockable.body(), "$.store")).isEqualTo("file");
		assertThat(JsonPath.<List<String>>read(lockable.body(), "$.methods[*].method"))
			.contains("ReportJob.generate()", "AdminController.rebuildIndex()");
		HttpResponse<String> locks = get("/actuator/lockable/locks");
		assertThat(locks.statusCode()).as(locks.body()).isEqualTo(200);
	}

	private HttpResponse<String> get(String path) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void healthIsUpBeforeTheFirstLockAndTheStartLogsNoWarning(CapturedOutput output) throws Exception {
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
		assertThat(JsonPath.<String>read(health.body(), "$.status")).isEqualTo("UP");
		assertThat(JsonPath.<String>read(health.body(), "$.components.lockable.status")).isEqualTo("UP");
		// this context's start only: the JVM's other contexts log too, closing among others
		String all = output.getAll();
		int starting = all.indexOf("Starting SampleHealthTests");
		int started = all.indexOf("Started SampleHealthTests", starting);
		assertThat(starting).isNotNegative();
		assertThat(started).isGreaterThan(starting);
		assertThat(all.substring(starting, started)).doesNotContain(" WARN ")
			.doesNotContain(" ERROR ")
			.doesNotContain("\tat ");
	}

}
