package io.github.lockable.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample as processed ahead of time ({@code spring-boot:process-aot}, in the build's
 * prepare-package phase), started in its own JVM with {@code -Dspring.aot.enabled=true} on
 * the file store: it starts from the generated code and answers a conflict as it does
 * without AOT.
 */
class SampleAotIT {

	private static final String DEMO_PROJECT = "7f5c2b4e-3d1a-4c8e-9a6b-1e2f3a4b5c6d";

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void aotProcessedSampleStartsAndAnswersAConflict(@TempDir Path temp) throws Exception {
		Path locks = Files.createDirectory(temp.resolve("locks"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		Path log = temp.resolve("sample.log");
		int port = freePort();
		Process sample = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Dspring.aot.enabled=true", "-cp", System.getProperty("java.class.path"),
				SampleApplication.class.getName(), "--server.address=127.0.0.1", "--server.port=" + port,
				"--lockable.file.directory=" + locks, "--sample.work.duration=2s", "--sample.report.initial-delay=1h"))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			await().atMost(Duration.ofSeconds(90))
				.until(() -> Files.readString(log).contains("Started SampleApplication") || !sample.isAlive());
			assertThat(Files.readString(log)).contains("Starting AOT-processed SampleApplication");
			String archive = "http://127.0.0.1:" + port + "/projects/" + DEMO_PROJECT + "/archive";
			CompletableFuture<HttpResponse<String>> first = post(archive);
			await().atMost(Duration.ofSeconds(10)).until(() -> lockFileCount(locks) == 1);
			HttpResponse<String> second = post(archive).get(30, TimeUnit.SECONDS);
			assertThat(second.statusCode()).isEqualTo(409);
			assertThat(second.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
		finally {
			sample.destroy();
			if (!sample.waitFor(20, TimeUnit.SECONDS)) {
				sample.destroyForcibly();
			}
		}
	}

	private CompletableFuture<HttpResponse<String>> post(String uri) {
		return this.http.sendAsync(HttpRequest.newBuilder(URI.create(uri))
			.POST(HttpRequest.BodyPublishers.noBody())
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static long lockFileCount(Path locks) throws IOException {
		try (var files = Files.list(locks)) {
			return files.filter((file) -> file.getFileName().toString().contains("project")).count();
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
