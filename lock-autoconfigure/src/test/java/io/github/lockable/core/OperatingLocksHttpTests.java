package io.github.lockable.core;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.ApplicationWithoutSecurity;
import io.github.lockable.test.jdbc.PostgresTestServer;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operators' view over real HTTP: two application instances on one store (one Redis,
 * one lock directory, one PostgreSQL table) each list the locks of both, with their holders and never a token,
 * and the instance whose endpoint allows it force-releases a lock of the other, whose
 * holder then finds it lost; the next holder gets a greater fencing token.
 */
@ExtendWith(OutputCaptureExtension.class)
class OperatingLocksHttpTests {

	private static final ObjectMapper json = new ObjectMapper();

	private static final Path DIRECTORY = createDirectory();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void closeContexts() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@AfterAll
	static void deleteDirectory() throws IOException {
		FileSystemUtils.deleteRecursively(DIRECTORY);
	}

	@ParameterizedTest
	@ValueSource(strings = { "file", "redis", "jdbc" })
	void everyInstanceListsTheLocksOfBothAndTheUnrestrictedOneForceReleases(String store, CapturedOutput output)
			throws Exception {
		String prefix = "ops" + store;
		ConfigurableApplicationContext alpha = start("alpha", store, prefix, true);
		ConfigurableApplicationContext beta = start("beta", store, prefix, false);
		LocalHttp alphaHttp = LocalHttp.of(alpha);
		LocalHttp betaHttp = LocalHttp.of(beta);
		Reports reports = beta.getBean(Reports.class);
		CompletableFuture<Void> report = CompletableFuture.runAsync(reports::run);
		try (HeldLock held = alpha.getBean(LockTemplate.class).tryLock("nightly", Duration.ofMinutes(1)).orElseThrow()) {
			assertThat(reports.awaitEntered()).isTrue();
			String token = ((DefaultHeldLock) held).handles().get(0).lease().token();
			long fencingToken = held.fencingToken();

			for (LocalHttp http : List.of(alphaHttp, betaHttp)) {
				HttpResponse<String> response = http.send("GET", "/actuator/lockable/locks");
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.body()).doesNotContain(token);
				JsonNode body = json.readTree(response.body());
				assertThat(body.get("store").asText()).isEqualTo(store);
				assertThat(body.get("truncated").asBoolean()).isFalse();
				JsonNode locks = body.get("locks");
				assertThat(locks).extracting((lock) -> lock.get("key").asText())
					.containsExactly(prefix + ":nightly", prefix + ":report");
				JsonNode nightly = locks.get(0);
				assertThat(nightly.get("instance").asText()).startsWith("alpha@");
				assertThat(nightly.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
				assertThat(nightly.get("method").asText()).isEqualTo("LockTemplate");
				assertThat(Instant.parse(nightly.get("acquiredAt").asText()))
					.isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(5));
				assertThat(Duration.parse(nightly.get("ttlLeft").asText())).isPositive()
					.isLessThanOrEqualTo(Duration.ofMinutes(1));
				JsonNode reportLock = locks.get(1);
				assertThat(reportLock.get("instance").asText()).startsWith("beta@");
				assertThat(reportLock.get("method").asText()).isEqualTo("OperatingLocksHttpTests.Reports.run()");
			}

			// read-only by default: beta's endpoint has no delete
			assertThat(betaHttp.send("DELETE", "/actuator/lockable/locks/" + prefix + ":nightly").statusCode())
				.isNotEqualTo(204);
			assertThat(held.isHeld()).isTrue();
			assertThat(alphaHttp.send("DELETE", "/actuator/lockable/locks/other:nightly").statusCode()).isEqualTo(400);
			assertThat(alphaHttp.send("DELETE", "/actuator/lockable/locks/" + prefix + ":absent").statusCode())
				.isEqualTo(404);

			// alpha's endpoint allows it: the lock goes, its holder finds it lost
			assertThat(alphaHttp.send("DELETE", "/actuator/lockable/locks/" + prefix + ":nightly").statusCode())
				.isEqualTo(204);
			assertThat(alphaHttp.send("DELETE", "/actuator/lockable/locks/" + prefix + ":nightly").statusCode())
				.isEqualTo(404);
			assertThat(output).contains("Force-released the lock " + prefix + ":nightly at the request of unauthenticated");
			assertThat(counter(alpha, "lockable.force-release")).isEqualTo(1);
			try (HeldLock next = beta.getBean(LockTemplate.class).tryLock("nightly", Duration.ofMinutes(1)).orElseThrow()) {
				assertThat(next.fencingToken()).isGreaterThan(fencingToken);
			}
			held.close();
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(output)
				.contains("Lock " + prefix + ":nightly disappeared before its TTL"));
			assertThat(alpha.getBean(MeterRegistry.class).find("lockable.release").tag("result", "lost").counter())
				.isNotNull()
				.satisfies((lost) -> assertThat(lost.count()).isEqualTo(1));
		}
		finally {
			reports.exit();
			report.get(30, TimeUnit.SECONDS);
		}
	}

	private static double counter(ConfigurableApplicationContext context, String name) {
		return context.getBean(MeterRegistry.class).find(name).counters().stream().mapToDouble((c) -> c.count()).sum();
	}

	private ConfigurableApplicationContext start(String name, String store, String prefix, boolean unrestricted) {
		List<String> properties = new ArrayList<>(List.of("spring.application.name=" + name, "server.port=0",
				"server.address=127.0.0.1", "lockable.store=" + store, "lockable.key-prefix=" + prefix,
				"lockable.file.directory=" + DIRECTORY, "management.endpoints.web.exposure.include=lockable",
				"management.health.redis.enabled=false"));
		if (store.equals("redis")) {
			RedisTestServer redis = RedisTestServer.shared();
			properties.add("spring.data.redis.host=" + redis.host());
			properties.add("spring.data.redis.port=" + redis.port());
		}
		if (store.equals("jdbc")) {
			PostgresTestServer postgres = PostgresTestServer.shared();
			postgres.createDatabase("operating_locks");
			properties.add("spring.datasource.url=" + postgres.jdbcUrl("operating_locks"));
			properties.add("spring.datasource.username=" + PostgresTestServer.USER);
			properties.add("lockable.jdbc.initialize-schema=always");
		}
		if (unrestricted) {
			properties.add("management.endpoint.lockable.access=unrestricted");
		}
		// As command-line arguments: they outrank the test class path's application.properties,
		// whose spring.datasource.url names the H2 database that other tests share
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.run(properties.stream().map((property) -> "--" + property).toArray(String[]::new));
		this.contexts.add(context);
		return context;
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("lockable-operating",
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@ApplicationWithoutSecurity
	static class Application {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	static class Reports {

		private final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch exit = new CountDownLatch(1);

		// Through the proxy: a class proxy's own fields are not the target's
		public boolean awaitEntered() throws InterruptedException {
			return this.entered.await(30, TimeUnit.SECONDS);
		}

		public void exit() {
			this.exit.countDown();
		}

		@Lockable(key = "report", ttl = "1m")
		public void run() {
			this.entered.countDown();
			try {
				this.exit.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
