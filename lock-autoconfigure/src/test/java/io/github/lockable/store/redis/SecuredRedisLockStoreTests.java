package io.github.lockable.store.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockStoreContract;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisCredentials;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store contract on a server of its own that logs clients in; the keys are in the
 * prefix {@code lock}, as with the default {@code lockable.key-prefix}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SecuredRedisLockStoreTests extends LockStoreContract {

	private RedisTestServer redis;

	private LettuceConnectionFactory connectionFactory;

	private RedisLockStore store;

	/**
	 * Starts the server this class tests on.
	 * @return the running server
	 */
	abstract RedisTestServer startServer();

	/**
	 * Who the store logs in as.
	 * @return the store's credentials
	 */
	abstract RedisCredentials credentials();

	@BeforeAll
	void startStore() {
		this.redis = startServer();
		this.connectionFactory = this.redis.connectionFactory(Duration.ofSeconds(10), credentials());
		this.store = new RedisLockStore(this.connectionFactory, Duration.ofSeconds(5));
		// The first connection of a fresh client can take seconds on a loaded machine; the
		// contract's first test must not pay for it.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !(Stages.join(this.store
				.acquire(new LockRequest("lock:warm-up", Duration.ofMillis(1)))) instanceof AcquireResult.Failed));
	}

	@AfterAll
	void stopStore() {
		this.store.close();
		this.connectionFactory.destroy();
		this.redis.close();
	}

	RedisTestServer redis() {
		return this.redis;
	}

	@Override
	protected LockStore createStore() {
		return this.store;
	}

	@Override
	protected String key(String name) {
		return "lock:" + super.key(name);
	}

	@Test
	void scriptsAreLoadedAgainAfterTheServerForgotThem() {
		this.redis.commands().scriptFlush();
		LockHandle handle = acquired(key("flushed"), LONG_TTL).handle();
		this.redis.commands().scriptFlush();
		assertThat(Stages.join(handle.extend(LONG_TTL))).isTrue();
		this.redis.commands().scriptFlush();
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
		assertThat(this.redis.commands().exists(key("flushed"))).isZero();
	}

}
