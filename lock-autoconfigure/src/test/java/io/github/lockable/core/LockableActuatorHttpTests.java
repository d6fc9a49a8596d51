package io.github.lockable.core;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.HeldLock;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.ApplicationWithoutSecurity;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code lockable} endpoint and the file store's health over real HTTP.
 */
@SpringBootTest(classes = LockableActuatorHttpTests.Application.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=file", "management.endpoints.web.exposure.include=lockable,health",
				"management.endpoint.health.show-details=always", "management.health.redis.enabled=false" })
class LockableActuatorHttpTests {

	private static final Path DIRECTORY = createDirectory();

	private static final ObjectMapper json = new ObjectMapper();

	@RegisterExtension
	final LocalHttp http = new LocalHttp();

	@Autowired
	private LockTemplate locks;

	@DynamicPropertySource
	static void directory(DynamicPropertyRegistry registry) {
		registry.add("lockable.file.directory", DIRECTORY::toString);
	}

	@AfterAll
	static void deleteDirectory() throws IOException {
		FileSystemUtils.deleteRecursively(DIRECTORY);
	}

	@Test
	void endpointListsTheMethodsTheStoreAndTheHeldLocksWithoutTheirTokens() throws Exception {
		try (HeldLock held = this.locks.tryLock("nightly-report", Duration.ofMinutes(1)).orElseThrow()) {
			String token = ((DefaultHeldLock) held).handles().get(0).lease().token();
			HttpResponse<String> response = this.http.send("GET", "/actuator/lockable");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).doesNotContain(token);
			JsonNode body = json.readTree(response.body());
			assertThat(body.get("store").asText()).isEqualTo("file");
			JsonNode methods = body.get("methods");
			assertThat(methods).extracting((method) -> method.get("method").asText())
				.containsExactly("LockableActuatorHttpTests.Jobs.order(String)", "LockableActuatorHttpTests.Jobs.report()",
						"LockableActuatorHttpTests.Jobs.sync()");
			assertThat(methods.get(0).has("key")).isFalse();
			assertThat(methods.get(0).get("resolver").asText()).isEqualTo("orderKeys");
			assertThat(methods.get(0).get("waitTime").asText()).isEqualTo("PT2S");
			assertThat(methods.get(0).get("conflictPolicy").asText()).isEqualTo("SKIP");
			assertThat(methods.get(0).get("returnKind").asText()).isEqualTo("OPTIONAL");
			assertThat(methods.get(1).get("key").asText()).isEqualTo("lock:report");
			assertThat(methods.get(1).has("resolver")).isFalse();
			assertThat(methods.get(1).get("ttl").asText()).isEqualTo("PT30S");
			assertThat(methods.get(1).get("waitTime").asText()).isEqualTo("PT0S");
			assertThat(methods.get(1).get("conflictPolicy").asText()).isEqualTo("CONFLICT");
			assertThat(methods.get(1).get("renew").asBoolean()).isFalse();
			assertThat(methods.get(1).get("returnKind").asText()).isEqualTo("VALUE");
			assertThat(methods.get(2).get("renew").asBoolean()).isTrue();
			assertThat(methods.get(2).get("ttl").asText()).isEqualTo("PT1M");
			assertThat(methods.get(2).get("returnKind").asText()).isEqualTo("COMPLETION_STAGE");
			JsonNode lock = body.get("held").get(0);
			assertThat(body.get("held")).hasSize(1);
			assertThat(lock.get("key").asText()).isEqualTo("lock:nightly-report");
			assertThat(lock.get("ttl").asText()).isEqualTo("PT1M");
			Duration age = Duration.parse(lock.get("age").asText());
			Duration ttlLeft = Duration.parse(lock.get("ttlLeft").asText());
			assertThat(age.isNegative()).isFalse();
			assertThat(ttlLeft).isEqualTo(Duration.ofMinutes(1).minus(age));
			assertThat(lock.has("acquiredAt")).isTrue();
			assertThat(names(lock)).containsExactlyInAnyOrder("key", "acquiredAt", "age", "ttl", "ttlLeft");
		}
		assertThat(json.readTree(this.http.send("GET", "/actuator/lockable").body()).get("held")).isEmpty();
	}

	@Test
	void healthIsUpForASafeDirectoryAndDownForOneOthersCanWrite() throws Exception {
		JsonNode lockable = json.readTree(this.http.send("GET", "/actuator/health").body()).get("components").get("lockable");
		assertThat(lockable.get("status").asText()).isEqualTo("UP");
		assertThat(lockable.get("details").get("directory").asText()).isEqualTo(DIRECTORY.toString());
		assertThat(lockable.get("details").get("owner").asText()).isEqualTo(System.getProperty("user.name"));
		assertThat(lockable.get("details").get("mode").asText()).isEqualTo("rwx------");
		Files.setPosixFilePermissions(DIRECTORY, PosixFilePermissions.fromString("rwxrwxrwx"));
		try {
			HttpResponse<String> response = this.http.send("GET", "/actuator/health");
			assertThat(response.statusCode()).isEqualTo(503);
			lockable = json.readTree(response.body()).get("components").get("lockable");
			assertThat(lockable.get("status").asText()).isEqualTo("DOWN");
			assertThat(lockable.get("details").get("mode").asText()).isEqualTo("rwxrwxrwx");
			assertThat(lockable.get("details").get("reason").asText()).contains("writable by its group or by others");
		}
		finally {
			Files.setPosixFilePermissions(DIRECTORY, PosixFilePermissions.fromString("rwx------"));
		}
	}

	private static List<String> names(JsonNode node) {
		List<String> names = new ArrayList<>();
		node.fieldNames().forEachRemaining(names::add);
		return names;
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("lockable-actuator",
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@ApplicationWithoutSecurity
	static class Application {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

		@Bean
		LockKeyResolver orderKeys() {
			return (invocation) -> "order:" + invocation.arguments().get(0);
		}

	}

	static class Jobs {

		@Lockable(key = "report", ttl = "30s")
		public void report() {
		}

		@Lockable(resolver = "orderKeys", waitTime = "2s", conflictPolicy = ConflictPolicy.SKIP)
		public Optional<String> order(String id) {
			return Optional.of(id);
		}

		@Lockable(key = "sync", ttl = "1m", renew = true)
		public CompletableFuture<String> sync() {
			return CompletableFuture.completedFuture("done");
		}

	}

}
