package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.test.Stages;
import io.github.lockable.test.redis.RedisCredentials;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SecuredRedisServers;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the ACL table of docs/operating.md says beyond its line: {@code +info} is required
 * with {@code lockable.redis.lock-delay}, whose acquire script reads {@code INFO server},
 * and {@code +wait} with {@code lockable.redis.replicas-to-ack}. A refused WAIT gives the
 * lock back instead of leaving it for its TTL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisAclOptionalRulesTests {

	private static final RedisCredentials ADMIN = new RedisCredentials("admin", "admin-secret");

	private static final RedisCredentials DOCUMENTED = new RedisCredentials("documented", "documented-secret");

	private static final RedisCredentials WITHOUT_INFO = new RedisCredentials("without-info", "without-info-secret");

	private static final RedisCredentials WITH_WAIT = new RedisCredentials("with-wait", "with-wait-secret");

	private RedisTestServer redis;

	@BeforeAll
	void startServer() {
		String rules = SecuredRedisServers.forTheServer(SecuredRedisServers.aclRules("lock"));
		this.redis = RedisTestServer.process()
			.config("user default off")
			.config(user(ADMIN, "~* &* +@all"))
			.config(user(DOCUMENTED, rules))
			.config(user(WITHOUT_INFO, rules.replace(" +info", "")))
			.config(user(WITH_WAIT, rules + " +wait"))
			.admin(ADMIN)
			.start();
	}

	@AfterAll
	void stopServer() {
		this.redis.close();
	}

	@Test
	void lockDelayNeedsInfo() {
		try (UserStore documented = new UserStore(DOCUMENTED, 0, Duration.ofMillis(1))) {
			// A server up for less than a second is still in the delay since its start.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> documented.acquire("lock:delayed:" + UUID.randomUUID()) instanceof AcquireResult.Acquired);
		}
		try (UserStore withoutInfo = new UserStore(WITHOUT_INFO, 0, Duration.ofMillis(1))) {
			String key = "lock:delayed:" + UUID.randomUUID();
			assertThat(withoutInfo.acquire(key)).isInstanceOf(AcquireResult.Failed.class);
			assertThat(this.redis.commands().exists(key)).isZero();
		}
		assertThat(this.redis.commands().aclLog()).anySatisfy((entry) -> assertThat(entry.get("object")).isEqualTo("info"));
	}

	@Test
	void replicasToAckNeedsWaitAndARefusedWaitGivesTheLockBack() {
		try (UserStore withoutWait = new UserStore(DOCUMENTED, 1, Duration.ZERO)) {
			String key = "lock:acked:" + UUID.randomUUID();
			assertThat(withoutWait.acquire(key)).isInstanceOfSatisfying(AcquireResult.Failed.class,
					(failed) -> assertThat(failed.cause()).hasMessageContaining("Grant the ACL user +wait"));
			assertThat(this.redis.commands().exists(key)).isZero();
		}
		// The server has no replica: with +wait the WAIT runs, counts none, and the lock is given back.
		try (UserStore withWait = new UserStore(WITH_WAIT, 1, Duration.ZERO)) {
			String key = "lock:acked:" + UUID.randomUUID();
			assertThat(withWait.acquire(key)).isInstanceOfSatisfying(AcquireResult.Failed.class,
					(failed) -> assertThat(failed.cause()).hasMessageStartingWith("Only 0 of the 1 replicas"));
			assertThat(this.redis.commands().exists(key)).isZero();
		}
	}

	private static String user(RedisCredentials credentials, String rules) {
		return "user " + credentials.username() + " on >" + credentials.password() + " " + rules;
	}

	/** A store that logs in as one user. */
	private final class UserStore implements AutoCloseable {

		private final LettuceConnectionFactory factory;

		private final RedisLockStore store;

		UserStore(RedisCredentials user, int replicasToAck, Duration lockDelay) {
			this.factory = RedisAclOptionalRulesTests.this.redis.connectionFactory(Duration.ofSeconds(10), user);
			this.store = new RedisLockStore(this.factory, Duration.ofSeconds(5), replicasToAck, lockDelay);
		}

		AcquireResult acquire(String key) {
			AtomicReference<AcquireResult> result = new AtomicReference<>();
			// The first connection of a fresh client can take longer than the timeout on a loaded machine.
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				result.set(Stages.join(this.store.acquire(new LockRequest(key, Duration.ofSeconds(30)))));
				return !(result.get() instanceof AcquireResult.Failed failed
						&& failed.cause() instanceof RedisTimeoutException);
			});
			return result.get();
		}

		@Override
		public void close() {
			this.store.close();
			this.factory.destroy();
		}

	}

}
