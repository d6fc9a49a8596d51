package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.lockable.test.redis.FaultyProxy;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store opens its connection when the application starts, before the web server takes
 * requests, so that the first call does not pay for the connect against its acquire
 * timeout (on a loaded machine the first open of a cold client can take seconds).
 */
class RedisLockStoreStartTests {

	/** Every connect round trip takes two seconds: no background open finishes during start(). */
	private static final Duration ONE_WAY_LATENCY = Duration.ofSeconds(1);

	@Test
	void startReturnsWithTheConnectionOpenAndItsHandshakeDone() {
		try (ProcessRedisServer redis = ProcessRedisServer.startDedicated();
				FaultyProxy proxy = FaultyProxy.start(redis.host(), redis.port())) {
			proxy.latency(ONE_WAY_LATENCY);
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(proxy.host(), proxy.port()),
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(30)).build());
			factory.afterPropertiesSet();
			factory.start();
			RedisLockStore store = new RedisLockStore(factory, Duration.ofSeconds(30));
			try {
				store.start();
				// Read at once, no waiting: a connection still in its handshake has not switched
				// to RESP3 yet (Lettuce's HELLO 3 is its first command).
				assertThat(storeClients(redis)).as("the store's connection after start()")
					.singleElement()
					.satisfies((client) -> assertHandshakeDone(redis, client));
			}
			finally {
				store.close();
				factory.destroy();
			}
		}
	}

	/**
	 * Redis 7 lists a client's protocol ({@code resp=}); Redis 6.2, the embedded-redis
	 * binary, does not, and there a connection past HELLO has run a command after it: the
	 * store's server detection.
	 */
	private static void assertHandshakeDone(ProcessRedisServer redis, String client) {
		if (majorVersion(redis) >= 7) {
			assertThat(client).contains(" resp=3");
		}
		else {
			assertThat(client).doesNotContain(" cmd=NULL ").doesNotContain(" cmd=hello ");
		}
	}

	private static int majorVersion(ProcessRedisServer redis) {
		return redis.commands()
			.info("server")
			.lines()
			.filter((line) -> line.startsWith("redis_version:"))
			.map((line) -> Integer.parseInt(line.substring("redis_version:".length()).split("\\.")[0]))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * The server's clients other than the test's own admin connection, known by its id:
	 * Redis 6.2 lists its last command as {@code cmd=client}, not {@code cmd=client|list}.
	 */
	private static List<String> storeClients(ProcessRedisServer redis) {
		String admin = "id=" + redis.commands().clientId() + " ";
		return redis.commands()
			.clientList()
			.lines()
			.filter((line) -> !line.isBlank() && !line.startsWith(admin))
			.toList();
	}

}
