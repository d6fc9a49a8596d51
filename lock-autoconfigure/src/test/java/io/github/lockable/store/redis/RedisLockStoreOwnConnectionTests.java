package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store's connections are its own: another Redis user of the application on the same
 * factory keeps its connection (the name it gave it with {@code CLIENT SETNAME}) while the store drops a
 * connection that went silent, and after the store closed.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisLockStoreOwnConnectionTests {

	private static final Duration TIMEOUT = Duration.ofMillis(500);

	private static final Duration TTL = Duration.ofSeconds(30);

	/** Given to the template's connection; a new connection has none. */
	private static final String NAME = "application";

	private ProcessRedisServer redis;

	private LettuceConnectionFactory factory;

	private StringRedisTemplate template;

	private RedisLockStore store;

	@BeforeEach
	void start() {
		this.redis = ProcessRedisServer.startDedicated();
		this.factory = this.redis.connectionFactory(Duration.ofSeconds(10));
		this.template = new StringRedisTemplate(this.factory);
		this.store = new RedisLockStore(this.factory, TIMEOUT);
	}

	@AfterEach
	void stop() {
		this.redis.recover();
		this.store.close();
		this.factory.destroy();
		this.redis.close();
	}

	@Test
	void anotherRedisUserKeepsItsConnectionAcrossTheStoresSilentDropAndClose(CapturedOutput output) {
		this.template.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().setClientName(NAME.getBytes(StandardCharsets.US_ASCII));
			return null;
		});
		assertThat(clientName()).isEqualTo(NAME);
		assertAcquiredAndReleased("lock:own:before");

		this.redis.freeze();
		// Every call times out; one after the silence limit drops the store's connection.
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> Stages.join(this.store.acquire(new LockRequest("lock:own:frozen", TTL))) instanceof AcquireResult.Failed
					&& output.getOut().contains("The Redis connection answered nothing for"));
		this.redis.thaw();

		await().atMost(Duration.ofSeconds(10)).until(() -> acquiredAndReleased("lock:own:after"));
		assertThat(clientName()).as("the template's connection after the store's silent drop").isEqualTo(NAME);

		this.store.close();
		assertThat(clientName()).as("the template's connection after the store closed").isEqualTo(NAME);
		assertThat(this.template.opsForValue().increment("own:counter")).isOne();
	}

	private String clientName() {
		return this.template.execute((RedisCallback<String>) (connection) -> connection.serverCommands().getClientName());
	}

	private void assertAcquiredAndReleased(String key) {
		assertThat(acquiredAndReleased(key)).isTrue();
	}

	private boolean acquiredAndReleased(String key) {
		return Stages.join(this.store.acquire(new LockRequest(key, TTL))) instanceof AcquireResult.Acquired acquired
				&& Stages.join(acquired.handle().release()) == ReleaseResult.RELEASED;
	}

}
