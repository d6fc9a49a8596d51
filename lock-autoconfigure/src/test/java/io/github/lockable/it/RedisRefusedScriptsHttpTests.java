package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.Gate;
import io.github.lockable.test.app.ProbedRedisApplication;
import io.github.lockable.test.redis.CommandStats;
import io.github.lockable.test.redis.RedisCredentials;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SecuredRedisServers;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis user that may not run the store's scripts, over HTTP: releases are scripts, so
 * no lock is taken that could not be released. Each locked call answers 503 without
 * sending its {@code SET} and the health is {@code DOWN} with the reason, whether the
 * startup probe found the refusal or a release met it after the ACL changed; once the
 * scripts are allowed again, calls lock again, without a restart. The README's
 * least-privilege user, less {@code +evalsha +eval}.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisRefusedScriptsHttpTests {

	private static final String KEY = "lock:jobs:nightly";

	private static final String HELD_KEY = "lock:jobs:held";

	@Test
	void userWithoutScriptsAtStartupGets503WithoutALockAndHealthSaysWhy(CapturedOutput output) throws Exception {
		try (RedisTestServer redis = SecuredRedisServers.startWithAclUser()) {
			refuseScripts(redis);
			try (ConfigurableApplicationContext context = start(redis)) {
				// The startup probe, in the background, or this health check finds the refusal.
				assertDownWithReason(ProbedRedisApplication.lockableHealth(context));
				HttpResponse<String> response = LocalHttp.of(context).post("/jobs/nightly");
				assertRefused(response);
				assertThat(redis.commands().keys("lock:*")).isEmpty();
				assertThat(CommandStats.calls(redis, "set")).isZero();
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(output.getAll())
						.contains("not run: lock store redis failed to acquire ")
						.contains("(SCRIPTS_REFUSED: Redis refused Lockable's Lua script (NOPERM")
						.contains("Grant the ACL user +evalsha +eval"));
				assertThat(context.getBean(Gate.class).runs()).hasValue(0);
			}
		}
	}

	@Test
	void releaseRefusedAtRuntimeStopsAcquiresUntilTheScriptsAreAllowedAgain(CapturedOutput output)
			throws Exception {
		try (RedisTestServer redis = SecuredRedisServers.startWithAclUser();
				ConfigurableApplicationContext context = start(redis)) {
			LocalHttp http = LocalHttp.of(context);
			Gate gate = context.getBean(Gate.class);
			assertThat(http.post("/jobs/nightly").statusCode()).isEqualTo(200);
			assertThat(redis.commands().exists(KEY)).isZero();
			CompletableFuture<HttpResponse<String>> held = http.postAsync("/jobs/held");
			gate.awaitEntered("held", 1);
			refuseScripts(redis);
			gate.open("held");
			// The method's own answer, whatever its release met; the release met NOPERM.
			assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			// The lock whose release was refused stays for its TTL, 60s; its token is in no line.
			String token = tokenOf(redis);
			long setsBefore = CommandStats.calls(redis, "set");
			assertRefused(http.post("/jobs/nightly"));
			assertThat(redis.commands().exists(KEY)).isZero();
			assertThat(CommandStats.calls(redis, "set")).isEqualTo(setsBefore);
			assertThat(output.getAll().lines())
				.anyMatch((line) -> line.contains(" ERROR ") && line.contains("RedisLockStore")
						&& line.contains("Redis refused Lockable's Lua script (NOPERM")
						&& line.contains("Grant the ACL user +evalsha +eval"));
			assertDownWithReason(ProbedRedisApplication.lockableHealth(context));
			allowScripts(redis);
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> http.post("/jobs/nightly").statusCode() == 200);
			assertThat(redis.commands().exists(KEY)).isZero();
			HttpResponse<String> health = ProbedRedisApplication.lockableHealth(context);
			assertThat(health.statusCode()).isEqualTo(200);
			assertThat(health.body()).contains("\"status\":\"UP\"").contains("\"scripts\":\"allowed\"");
			assertThat(output.getAll()).doesNotContain(token);
		}
	}

	private static void assertRefused(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(response.body()).contains("urn:lockable:problem:lock-store-unavailable")
			.contains("\"retryable\":true");
	}

	private static void assertDownWithReason(HttpResponse<String> health) {
		assertThat(health.statusCode()).isEqualTo(503);
		assertThat(health.body()).contains("\"status\":\"DOWN\"")
			.contains("\"scripts\":\"refused\"")
			.contains("\"reason\":\"Redis refused Lockable's Lua script (NOPERM")
			.contains("Grant the ACL user +evalsha +eval");
	}

	/** The token part of the lock the refused release left. */
	private static String tokenOf(RedisTestServer redis) {
		String value = redis.commands().get(HELD_KEY);
		assertThat(value).isNotBlank();
		return value.substring(0, value.indexOf(' '));
	}

	private static void refuseScripts(RedisTestServer redis) {
		redis.commands()
			.aclSetuser(user().username(),
					AclSetuserArgs.Builder.removeCommand(CommandType.EVALSHA).removeCommand(CommandType.EVAL));
	}

	private static void allowScripts(RedisTestServer redis) {
		redis.commands()
			.aclSetuser(user().username(),
					AclSetuserArgs.Builder.addCommand(CommandType.EVALSHA).addCommand(CommandType.EVAL));
	}

	private static RedisCredentials user() {
		return SecuredRedisServers.LOCKABLE_USER;
	}

	private static ConfigurableApplicationContext start(RedisTestServer redis) {
		return ProbedRedisApplication.start(redis, "spring.data.redis.username=" + user().username(),
				"spring.data.redis.password=" + user().password());
	}

}
