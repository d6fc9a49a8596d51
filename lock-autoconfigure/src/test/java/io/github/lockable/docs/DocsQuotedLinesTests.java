package io.github.lockable.docs;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariDataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.core.LockableEndpoint;
import io.github.lockable.docs.DocsQuotes.Quote;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.ApplicationWithoutSecurity;
import io.github.lockable.test.jdbc.JdbcTestDatabases;
import io.github.lockable.test.jdbc.PostgresTestServer;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * Every log line and failure text the docs quote (the {@code log <situation>} blocks of
 * README.md and docs/*.md, see {@link DocsQuotes}) is found in what Lockable prints when the
 * situation it describes is reproduced: a quote that drifts from the code fails here.
 */
@ExtendWith(OutputCaptureExtension.class)
class DocsQuotedLinesTests {

	/** The situations this class reproduces; a docs block naming another one fails. */
	private static final Set<String> SITUATIONS = Set.of("misconfiguration", "skip-job", "self-invocation",
			"file-reclaim", "unsafe-directory", "ttl-warning", "expired-before-release", "disappeared-before-release",
			"lost-at-renewal", "release-failed", "store-outage", "caller-transaction", "force-release",
			"unknown-property", "redis-eviction", "redis-timeout", "redis-replica", "jdbc-no-table", "jdbc-table-later",
			"jdbc-table-columns", "jdbc-create-failed", "jdbc-table-unchecked", "redis-health-other-store");

	private static final Map<String, List<Quote>> quotes = DocsQuotes.bySituation();

	@Test
	void everyQuotedSituationIsReproducedHere() {
		assertThat(quotes.keySet()).as("situations of the docs' log blocks").isEqualTo(new TreeSet<>(SITUATIONS));
	}

	@Test
	void misconfigurationIsReportedAsTheDocsQuoteIt(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(BrokenApplication.class)
			.web(WebApplicationType.NONE)
			.properties("lockable.store=memory", "spring.main.banner-mode=off")
			.run()
			.close());
		assertQuoted(output, "misconfiguration");
	}

	@Test
	void fileStoreLinesAreAsTheDocsQuoteThem(CapturedOutput output, @TempDir Path tmp) throws InterruptedException {
		try (ConfigurableApplicationContext context = start(FileApplication.class, "lockable.store=file",
				"lockable.file.directory=" + tmp.resolve("locks"))) {
			LockTemplate locks = context.getBean(LockTemplate.class);
			ReportJob job = context.getBean(ReportJob.class);
			try (HeldLock daily = locks.tryLock("report:daily", Duration.ofMinutes(1)).orElseThrow();
					HeldLock hourly = locks.tryLock("report:hourly", Duration.ofMinutes(1)).orElseThrow()) {
				job.generate();
				job.hourlyReport();
			}
			HeldLock stale = locks.tryLock("stale", Duration.ofMillis(50)).orElseThrow();
			Thread.sleep(150);
			locks.tryLock("stale", Duration.ofSeconds(5)).orElseThrow().close();
			stale.close();
		}
		assertQuoted(output, "skip-job");
		assertQuoted(output, "self-invocation");
		assertQuoted(output, "file-reclaim");
	}

	@Test
	void unsafeLockDirectoryFailsTheStartAsTheDocsQuoteIt(CapturedOutput output, @TempDir Path tmp) throws IOException {
		Path directory = Files.createDirectory(tmp.resolve("shared"));
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
		assertThatException().isThrownBy(
				() -> start(FileApplication.class, "lockable.store=file", "lockable.file.directory=" + directory)
					.close());
		assertQuoted(output, "unsafe-directory");
	}

	@Test
	void lockManagerLinesAreAsTheDocsQuoteThem(CapturedOutput output, @TempDir Path tmp) throws Exception {
		Path extra = Files.writeString(tmp.resolve("extra.properties"), "lockable.defualt-ttl=10s\n");
		try (ConfigurableApplicationContext context = start(FlakyApplication.class, "lockable.store=memory",
				"spring.config.additional-location=file:" + extra,
				"logging.level.io.github.lockable.aop.CallerTransactionRelease=debug", "lockable.ttl-warning-ratio=0.1",
				"management.endpoints.web.exposure.include=lockable", "management.endpoint.lockable.access=unrestricted")) {
			LockTemplate locks = context.getBean(LockTemplate.class);
			FlakyStore store = context.getBean(FlakyStore.class);
			Work work = context.getBean(Work.class);

			work.nearlyOutlivesItsTtl();

			try (HeldLock expiring = locks.tryLock("expiring", Duration.ofMillis(100)).orElseThrow()) {
				Thread.sleep(200);
			}

			try (HeldLock gone = locks.tryLock("gone", Duration.ofSeconds(30)).orElseThrow()) {
				context.getBean(LockableEndpoint.class).forceRelease("locks", "lock:gone", SecurityContext.NONE);
			}

			try (HeldLock renewed = locks.tryLockRenewing("renewed", Duration.ofSeconds(3), Duration.ZERO)
				.orElseThrow()) {
				store.forceRelease("lock:renewed");
				await().atMost(Duration.ofSeconds(5)).until(() -> !renewed.isHeld());
			}

			HeldLock unreleased = locks.tryLock("unreleased", Duration.ofSeconds(30)).orElseThrow();
			store.failing = true;
			unreleased.close();
			work.job();
			store.failing = false;
			work.job();

			new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).executeWithoutResult((status) -> work.inTransaction());
		}
		for (String situation : List.of("unknown-property", "ttl-warning", "expired-before-release", "force-release",
				"disappeared-before-release", "lost-at-renewal", "release-failed", "store-outage",
				"caller-transaction")) {
			assertQuoted(output, situation);
		}
	}

	@Test
	void redisLinesAreAsTheDocsQuoteThem(CapturedOutput output) {
		try (ProcessRedisServer redis = ProcessRedisServer.startDedicated();
				ProcessRedisServer replica = ProcessRedisServer.startDedicated()) {
			redis.commands().configSet("maxmemory-policy", "volatile-lru");
			replica.commands().replicaof(redis.host(), redis.port());
			try (ConfigurableApplicationContext context = start(RedisApplication.class, "lockable.store=redis",
					"spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"spring.data.redis.timeout=200ms", "lockable.acquire-timeout=5s")) {
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(output.getAll()).contains("maxmemory-policy is volatile-lru"));
				RedisWork work = context.getBean(RedisWork.class);
				await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
					work.run();
					return true;
				});
				redis.pause(Duration.ofSeconds(1));
				assertThatException().isThrownBy(work::run);
			}
			try (ConfigurableApplicationContext context = start(RedisApplication.class, "lockable.store=redis",
					"spring.data.redis.host=" + replica.host(), "spring.data.redis.port=" + replica.port())) {
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(output.getAll()).contains("Redis answers as a replica"));
			}
		}
		assertQuoted(output, "redis-eviction");
		assertQuoted(output, "redis-timeout");
		assertQuoted(output, "redis-replica");
	}

	@Test
	void jdbcStoreLinesAreAsTheDocsQuoteThem(CapturedOutput output) throws IOException {
		PostgresTestServer server = PostgresTestServer.shared();
		server.createDatabase("docs_jdbc");
		String[] database = { "lockable.store=jdbc", "spring.datasource.url=" + server.jdbcUrl("docs_jdbc"),
				"spring.datasource.username=" + PostgresTestServer.USER };
		try (HikariDataSource admin = JdbcTestDatabases.postgresWithoutTable("docs_jdbc")) {
			JdbcTemplate jdbc = new JdbcTemplate(admin);
			jdbc.execute("DROP TABLE IF EXISTS lockable_lock");
			assertThatException().isThrownBy(() -> startJdbc(database).close());
			assertQuoted(output, "jdbc-no-table");

			try (ConfigurableApplicationContext context = startJdbc(
					with(database, "lockable.jdbc.fail-on-missing-table=false"))) {
				assertThatException().isThrownBy(context.getBean(JdbcWork.class)::run);
			}
			assertQuoted(output, "jdbc-table-later");

			JdbcTestDatabases.createTable(admin, "postgresql");
			jdbc.execute("ALTER TABLE lockable_lock ALTER COLUMN expires_at TYPE TIMESTAMP");
			assertThatException().isThrownBy(() -> startJdbc(database).close());
			assertQuoted(output, "jdbc-table-columns");
			jdbc.execute("DROP TABLE lockable_lock");

			assertThatException().isThrownBy(() -> startJdbc(with(database, "lockable.jdbc.initialize-schema=always",
					"spring.datasource.hikari.data-source-properties.options=-c default_transaction_read_only=on"))
				.close());
			assertQuoted(output, "jdbc-create-failed");
		}
		startJdbc("lockable.store=jdbc", "lockable.acquire-timeout=1s",
				"spring.datasource.url=jdbc:postgresql://127.0.0.1:" + closedPort() + "/docs_jdbc",
				"spring.datasource.username=" + PostgresTestServer.USER)
			.close();
		assertQuoted(output, "jdbc-table-unchecked");
	}

	@Test
	void redisHealthBesideAnotherStoreIsAsTheDocsQuoteIt(CapturedOutput output) throws Exception {
		// the starter beside lockable-store-jdbc: Spring Data Redis on the class path, no Redis
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthApplication.class)
			.properties("spring.main.banner-mode=off", "spring.jmx.enabled=false", "server.port=0")
			.run("--lockable.store=jdbc", "--spring.data.redis.port=" + closedPort(),
					"--management.endpoint.health.show-components=always")) {
			HttpResponse<String> health = LocalHttp.of(context).send("GET", "/actuator/health");
			assertThat(health.statusCode()).isEqualTo(503);
			assertThat(health.body()).contains("\"redis\":{\"status\":\"DOWN\"}")
				.contains("\"lockable\":{\"status\":\"UP\"}");
		}
		assertQuoted(output, "redis-health-other-store");
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static String[] with(String[] properties, String... more) {
		return Stream.concat(Arrays.stream(properties), Arrays.stream(more)).toArray(String[]::new);
	}

	/** The JDBC application, its properties as arguments: they outrank the tests' application.properties. */
	private static ConfigurableApplicationContext startJdbc(String... properties) {
		return new SpringApplicationBuilder(JdbcApplication.class).web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off", "spring.jmx.enabled=false")
			.run(Arrays.stream(properties).map((property) -> "--" + property).toArray(String[]::new));
	}

	private static ConfigurableApplicationContext start(Class<?> application, String... properties) {
		return new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off", "spring.jmx.enabled=false")
			.properties(properties)
			.run();
	}

	private static void assertQuoted(CapturedOutput output, String situation) {
		List<Quote> quoted = quotes.get(situation);
		assertThat(quoted).as("the docs' quotes of situation " + situation).isNotEmpty();
		String printed = output.getAll();
		assertThat(quoted).as("quotes of situation '%s' not found in what it printed", situation)
			.allSatisfy((quote) -> assertThat(quote.isIn(printed)).as("%s%n  pattern: %s", quote, quote.pattern())
				.isTrue());
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class BrokenApplication {

		@Bean
		BrokenJob brokenJob() {
			return new BrokenJob();
		}

	}

	static class BrokenJob {

		@Lockable(resolver = "missing")
		public void report() {
		}

		@Lockable(key = "rebuild", ttl = "0s")
		public void rebuild() {
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class FileApplication {

		@Bean
		ReportJob reportJob() {
			return new ReportJob();
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class FlakyApplication {

		@Bean
		FlakyStore flakyStore() {
			return new FlakyStore();
		}

		@Bean
		Work work() {
			return new Work();
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class RedisApplication {

		@Bean
		RedisWork redisWork() {
			return new RedisWork();
		}

	}

	@ApplicationWithoutSecurity
	static class HealthApplication {

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class JdbcApplication {

		@Bean
		JdbcWork jdbcWork() {
			return new JdbcWork();
		}

	}

	static class JdbcWork {

		@Lockable(key = "nightly-export")
		public void run() {
		}

	}

	static class RedisWork {

		@Lockable(key = "slow-redis")
		public void run() {
		}

	}

	static class Work {

		/** Past the warning ratio (10% in this test), far from the TTL even on a busy machine. */
		@Lockable(key = "near-ttl", ttl = "10s")
		public void nearlyOutlivesItsTtl() throws InterruptedException {
			Thread.sleep(1200);
		}

		@Lockable(key = "outage", conflictPolicy = ConflictPolicy.SKIP)
		public void job() {
		}

		@Lockable(key = "in-transaction")
		public void inTransaction() {
		}

	}

}
