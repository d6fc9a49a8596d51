package io.github.lockable.store.redis;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.lockable.test.redis.RedisCredentials;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.SecuredRedisServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The store contract as an ACL user with the least privileges the README gives, the
 * default user off: every command the store sends, in scripts too, is allowed (the server
 * refused nothing after any test), and the user can do nothing else.
 */
class RedisLockStoreAclTests extends SecuredRedisLockStoreTests {

	@Override
	RedisTestServer startServer() {
		return SecuredRedisServers.startWithAclUser();
	}

	@Override
	RedisCredentials credentials() {
		return SecuredRedisServers.LOCKABLE_USER;
	}

	@AfterEach
	void serverRefusedNothing() {
		assertThat(SecuredRedisServers.aclDenials(redis())).isEmpty();
	}

	@Test
	void userCannotReachKeysOutsideThePrefixNorAdministerTheServer() {
		RedisCommands<String, String> admin = redis().commands();
		admin.set("other-app:data", "x");
		RedisCredentials user = SecuredRedisServers.LOCKABLE_USER;
		RedisURI uri = RedisURI.builder()
			.withHost(redis().host())
			.withPort(redis().port())
			.withAuthentication(user.username(), user.password())
			.build();
		RedisClient client = RedisClient.create(uri);
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			RedisCommands<String, String> asUser = connection.sync();
			assertThat(asUser.exists("lock:free")).isZero();
			List<ThrowingCallable> refused = new ArrayList<>(List.of(() -> asUser.get("other-app:data"),
					() -> asUser.del("other-app:data"), () -> asUser.keys("*"), () -> asUser.flushall(),
					() -> asUser.configGet("requirepass"), () -> asUser.publish("other-channel", "x")));
			if (hasSpublish(admin)) {
				// Redis 6.2 answers an unknown command, not NOPERM
				refused.add(() -> asUser.spublish("{other:x}:released", "x"));
			}
			for (ThrowingCallable call : refused) {
				assertThat(catchThrowable(call)).hasMessageContaining("NOPERM");
			}
		}
		finally {
			client.shutdown();
		}
		// ACL LOG merges repeated refusals of one kind into one entry.
		assertThat(SecuredRedisServers.aclDenials(redis())).isNotEmpty();
		admin.aclLogReset();
		assertThat(admin.get("other-app:data")).isEqualTo("x");
	}

	private static boolean hasSpublish(RedisCommands<String, String> admin) {
		List<Object> info = admin.commandInfo("SPUBLISH");
		return !info.isEmpty() && info.get(0) != null;
	}

}
