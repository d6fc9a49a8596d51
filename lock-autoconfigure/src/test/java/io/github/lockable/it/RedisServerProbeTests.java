package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.ProbedRedisApplication;
import io.github.lockable.test.redis.ProcessRedisServer;
import io.github.lockable.test.redis.RedisClusterTestServer;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SecuredRedisServers;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the Redis store says, at startup and in its health, about a server that breaks its
 * locks: an eviction policy that evicts them, a read-only replica, a user that may not run
 * its scripts; and nothing about one that is fine. Each against a real application and a
 * {@code redis-server} of the test's own; the application starts in every case.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisServerProbeTests {

	private static final Duration STARTUP_PROBE = Duration.ofSeconds(30);

	@Test
	void evictionPolicyThatEvictsLockKeysIsWarnedAtStartupAndShownInHealth(CapturedOutput output) throws Exception {
		try (ProcessRedisServer redis = ProcessRedisServer.startDedicated()) {
			redis.commands().configSet("maxmemory-policy", "volatile-lru");
			try (ConfigurableApplicationContext context = ProbedRedisApplication.start(redis)) {
				await().atMost(STARTUP_PROBE)
					.untilAsserted(() -> assertThat(lines(output, " WARN "))
						.anyMatch((line) -> line.contains("maxmemory-policy is volatile-lru")
								&& line.contains("every lock key has one")
								&& line.contains("Set maxmemory-policy noeviction")));
				HttpResponse<String> health = ProbedRedisApplication.lockableHealth(context);
				assertThat(health.statusCode()).isEqualTo(200);
				assertThat(health.body()).contains("\"status\":\"UP\"")
					.contains("\"maxmemoryPolicy\":\"volatile-lru\"")
					.contains("\"warning\":\"Redis's maxmemory-policy is volatile-lru");
			}
		}
	}

	@Test
	void allKeysPolicyIsWarnedForTheFencingCountersToo(CapturedOutput output) {
		try (ProcessRedisServer redis = ProcessRedisServer.startDedicated()) {
			redis.commands().configSet("maxmemory-policy", "allkeys-lru");
			try (ConfigurableApplicationContext context = ProbedRedisApplication.start(redis)) {
				await().atMost(STARTUP_PROBE)
					.untilAsserted(() -> assertThat(lines(output, " WARN "))
						.anyMatch((line) -> line.contains("maxmemory-policy is allkeys-lru")
								&& line.contains("fencing counters")));
			}
		}
	}

	@Test
	void replicaIsAnErrorAtStartupAndDownInHealthWhileTheApplicationStarts(CapturedOutput output) throws Exception {
		try (ProcessRedisServer primary = ProcessRedisServer.startDedicated();
				ProcessRedisServer replica = ProcessRedisServer.startDedicated()) {
			replica.commands().replicaof(primary.host(), primary.port());
			try (ConfigurableApplicationContext context = ProbedRedisApplication.start(replica)) {
				assertThat(context.isActive()).isTrue();
				await().atMost(STARTUP_PROBE)
					.untilAsserted(() -> assertThat(lines(output, " ERROR "))
						.anyMatch((line) -> line.contains("Redis answers as a replica (role:slave)")
								&& line.contains("spring.data.redis points at the primary")));
				HttpResponse<String> health = ProbedRedisApplication.lockableHealth(context);
				assertThat(health.statusCode()).isEqualTo(503);
				assertThat(health.body()).contains("\"status\":\"DOWN\"")
					.contains("\"role\":\"slave\"")
					.contains("\"reason\":\"Redis answers as a replica");
				assertThat(LocalHttp.of(context).post("/jobs/nightly").statusCode()).isEqualTo(503);
			}
		}
	}

	@Test
	void userWithoutScriptPermissionIsAnErrorAtStartupAndDownInHealth(CapturedOutput output) throws Exception {
		try (RedisTestServer redis = RedisTestServer.process()
			.config("user noscripts on >noscripts-secret ~* &* +@all -evalsha -eval")
			.start()) {
			try (ConfigurableApplicationContext context = ProbedRedisApplication.start(redis,
					"spring.data.redis.username=noscripts", "spring.data.redis.password=noscripts-secret")) {
				assertThat(context.isActive()).isTrue();
				await().atMost(STARTUP_PROBE)
					.untilAsserted(() -> assertThat(lines(output, " ERROR "))
						.anyMatch((line) -> line.contains("Redis refused Lockable's Lua script (NOPERM")
								&& line.contains("+evalsha +eval")));
				HttpResponse<String> health = ProbedRedisApplication.lockableHealth(context);
				assertThat(health.statusCode()).isEqualTo(503);
				assertThat(health.body()).contains("\"status\":\"DOWN\"").contains("\"scripts\":\"refused\"");
			}
		}
	}

	@Test
	void primaryThatDoesNotEvictWithTheReadmeAclSaysNothing(CapturedOutput output) throws Exception {
		try (RedisTestServer redis = SecuredRedisServers.startWithAclUser()) {
			try (ConfigurableApplicationContext context = ProbedRedisApplication.start(redis,
					"spring.data.redis.username=" + SecuredRedisServers.LOCKABLE_USER.username(),
					"spring.data.redis.password=" + SecuredRedisServers.LOCKABLE_USER.password(),
					"logging.level.io.github.lockable.store.redis.RedisLockStore=debug")) {
				await().atMost(STARTUP_PROBE)
					.until(() -> output.getAll().contains("Redis lock store probe: {maxmemoryPolicy=noeviction, "
							+ "role=master, scripts=allowed}"));
				HttpResponse<String> health = ProbedRedisApplication.lockableHealth(context);
				assertThat(health.statusCode()).isEqualTo(200);
				assertThat(health.body()).contains("\"status\":\"UP\"")
					.contains("\"maxmemoryPolicy\":\"noeviction\"")
					.contains("\"role\":\"master\"")
					.contains("\"scripts\":\"allowed\"")
					.doesNotContain("warning");
			}
			assertThat(SecuredRedisServers.aclDenials(redis)).isEmpty();
		}
		assertThat(output.getAll()).doesNotContain("maxmemory-policy is")
			.doesNotContain("answers as a replica")
			.doesNotContain("refused Lockable's Lua script")
			.doesNotContain("Redis refused INFO");
	}

	@Test
	void everyMasterOfAClusterIsProbed(CapturedOutput output) throws Exception {
		RedisClusterTestServer cluster = RedisClusterTestServer.shared();
		List<RedisCommands<String, String>> masters = cluster.masters();
		RedisCommands<String, String> last = masters.get(masters.size() - 1);
		last.configSet("maxmemory-policy", "volatile-lfu");
		try (ConfigurableApplicationContext context = ProbedRedisApplication.start(cluster)) {
			await().atMost(STARTUP_PROBE)
				.untilAsserted(() -> assertThat(lines(output, " WARN "))
					.anyMatch((line) -> line.contains("maxmemory-policy is volatile-lfu")));
			HttpResponse<String> health = ProbedRedisApplication.lockableHealth(context);
			assertThat(health.body()).contains("\"status\":\"UP\"")
				.contains("\"maxmemoryPolicy\":\"volatile-lfu\"")
				.contains("\"role\":\"master\"")
				.contains("\"scripts\":\"allowed\"");
		}
		finally {
			last.configSet("maxmemory-policy", "noeviction");
		}
	}

	@Test
	void storeConnectionIsOpenBeforeTheFirstRequestWhichOpensNone() throws Exception {
		try (ProcessRedisServer redis = ProcessRedisServer.startDedicated()) {
			try (ConfigurableApplicationContext context = ProbedRedisApplication.start(redis)) {
				await().atMost(STARTUP_PROBE).until(() -> redis.commands().clientList()
					.contains("name=" + ProbedRedisApplication.CLIENT_NAME));
				long connectionsBefore = totalConnections(redis);
				assertThat(LocalHttp.of(context).post("/jobs/nightly").body()).isEqualTo("ran");
				assertThat(totalConnections(redis)).isEqualTo(connectionsBefore);
			}
		}
	}

	private static long totalConnections(RedisTestServer redis) {
		return redis.commands()
			.info("stats")
			.lines()
			.filter((line) -> line.startsWith("total_connections_received:"))
			.mapToLong((line) -> Long.parseLong(line.substring(line.indexOf(':') + 1).trim()))
			.findFirst()
			.orElseThrow();
	}

	private static List<String> lines(CapturedOutput output, String level) {
		return output.getAll().lines().filter((line) -> line.contains(level)).toList();
	}

}
