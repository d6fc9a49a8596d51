package io.github.lockable.test.kit;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.LockEvent;
import io.github.lockable.test.LockableTestKit;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test kit on a real Redis that the test chose: the held key answers the conflict over
 * HTTP, and the reset deletes the locks under the application's prefix and nothing else:
 * not another prefix's keys, not a key that only starts with the prefix's letters, not the
 * fencing counters that keep tokens increasing.
 */
@SpringBootTest(classes = KitApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "lockable.key-prefix=kit" })
class LockableTestKitRedisTests {

	@RegisterExtension
	final LocalHttp http = new LocalHttp();

	@Autowired
	LockableTestKit kit;

	@Autowired
	LockStore store;

	@Autowired
	LockTemplate template;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void aHeldKeyAnswersTheConflictOnRedis() throws Exception {
		assertThat(this.store).isInstanceOf(RedisLockStore.class);
		UUID project = UUID.randomUUID();
		try (HeldLock held = this.kit.hold("project:" + project)) {
			assertThat(RedisTestServer.shared().commands().exists("kit:project:" + project)).isOne();
			assertThat(this.http.post("/projects/" + project + "/archive").statusCode()).isEqualTo(409);
		}
		assertThat(this.http.post("/projects/" + project + "/archive").statusCode()).isEqualTo(200);
		assertThat(this.kit.events()).extracting(LockEvent::outcome)
			.containsExactly(LockEvent.Outcome.REFUSED, LockEvent.Outcome.ACQUIRED, LockEvent.Outcome.RELEASED);
	}

	@Test
	void theResetDeletesOnlyTheLocksUnderThePrefix() {
		var redis = RedisTestServer.shared().commands();
		String id = UUID.randomUUID().toString();
		redis.set("other:project:" + id, "another application's lock");
		redis.set("kitchen:" + id, "starts with the prefix's letters, not with kit:");
		this.kit.hold("project:" + id);
		HeldLock fenced = this.template.tryLock("imports:" + id, Duration.ofMinutes(5)).orElseThrow();
		long token = fenced.fencingToken();
		this.kit.reset();
		assertThat(redis.exists("kit:project:" + id, "kit:imports:" + id)).isZero();
		assertThat(redis.exists("other:project:" + id, "kitchen:" + id)).isEqualTo(2);
		assertThat(this.kit.events()).isEmpty();
		try (HeldLock next = this.template.tryLock("imports:" + id, Duration.ofSeconds(10)).orElseThrow()) {
			assertThat(next.fencingToken()).isGreaterThan(token);
		}
		redis.del("other:project:" + id, "kitchen:" + id);
	}

}
