package io.github.lockable.store.redis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.test.redis.ProcessRedisServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Every kind of timeout on an acquire, on a Redis that is slow for a moment
 * ({@code CLIENT PAUSE}): Lettuce's command timeout, Lockable's own acquire timeout, and
 * the connect. Each is a store failure with the code {@code TIMEOUT} whose message names the
 * timeout that fired, and an acquire that Redis runs after its caller gave up is deleted
 * again as soon as Redis answers, instead of holding the lock for nobody for its whole TTL.
 */
class RedisLockStoreTimeoutTests {

	private static final Duration LETTUCE_TIMEOUT = Duration.ofMillis(200);

	private static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(5);

	/** Longer than the timeout that fires, far shorter than the TTL. */
	private static final Duration PAUSE = Duration.ofMillis(1500);

	/** Far longer than every wait of the test: a lock left behind cannot go unnoticed. */
	private static final Duration TTL = Duration.ofSeconds(60);

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private static final ProcessRedisServer redis = ProcessRedisServer.startDedicated();

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void closeAndRecover() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		redis.recover();
		redis.flushAll();
	}

	@AfterAll
	static void stopServer() {
		redis.close();
	}

	@Test
	void lettuceCommandTimeoutIsNamedAndTheLateAcquireIsDeleted() {
		RedisLockStore store = warmStore(LETTUCE_TIMEOUT, ACQUIRE_TIMEOUT);
		String key = "lock:late:" + UUID.randomUUID();
		long scriptsBefore = scriptCalls();

		redis.pause(PAUSE);
		LockStoreException failure = failed(Stages.join(store.acquire(new LockRequest(key, TTL))));
		assertThat(failure.getCode()).isEqualTo("TIMEOUT");
		assertThat(failure).hasMessageContaining("Lettuce's command timeout")
			.hasMessageContaining("200ms (spring.data.redis.timeout)");

		assertLateAcquireDeleted(store, key, scriptsBefore);
	}

	@Test
	void acquireTimeoutIsNamedAndTheLateAcquireIsDeleted() {
		RedisLockStore store = warmStore(Duration.ofSeconds(10), Duration.ofMillis(300));
		String key = "lock:late:" + UUID.randomUUID();
		long scriptsBefore = scriptCalls();

		redis.pause(PAUSE);
		LockStoreException failure = failed(Stages.join(store.acquire(new LockRequest(key, TTL))));
		assertThat(failure.getCode()).isEqualTo("TIMEOUT");
		assertThat(failure).hasMessageContaining("300ms (lockable.acquire-timeout)");

		assertLateAcquireDeleted(store, key, scriptsBefore);
	}

	@Test
	void handshakeCutShortByLettucesCommandTimeoutIsNamed() {
		LettuceConnectionFactory factory = factory(redis.host(), redis.port(), LETTUCE_TIMEOUT, Duration.ofSeconds(10));
		RedisLockStore store = store(factory, ACQUIRE_TIMEOUT, 0);
		redis.pause(PAUSE);
		// No connection yet: Lettuce's handshake meets the pause.
		LockStoreException failure = failed(Stages.join(store.acquire(new LockRequest("lock:late:handshake", TTL))));
		assertThat(failure.getCode()).isEqualTo("TIMEOUT");
		assertThat(failure).hasMessageContaining("200ms (spring.data.redis.timeout)");
	}

	@Test
	void connectTimeoutIsNamed() throws IOException {
		// A listener whose accept queue is full: the kernel drops further SYNs, so a connect
		// neither succeeds nor is refused until the client gives up.
		try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			List<Socket> queued = new ArrayList<>();
			try {
				for (int i = 0; i < 4; i++) {
					Socket socket = new Socket();
					try {
						socket.connect(new InetSocketAddress(full.getInetAddress(), full.getLocalPort()), 200);
						queued.add(socket);
					}
					catch (IOException ex) {
						socket.close();
					}
				}
				assumeThat(connectTimesOut(full)).as("this kernel drops connects to a full accept queue").isTrue();
				LettuceConnectionFactory factory = factory(full.getInetAddress().getHostAddress(),
						full.getLocalPort(), Duration.ofSeconds(10), Duration.ofMillis(500));
				RedisLockStore store = store(factory, ACQUIRE_TIMEOUT, 0);
				LockStoreException failure = failed(Stages.join(store.acquire(new LockRequest("lock:late:connect", TTL))));
				assertThat(failure.getCode()).isEqualTo("TIMEOUT");
				assertThat(failure).hasMessageContaining("500ms (spring.data.redis.connect-timeout)");
			}
			finally {
				for (Socket socket : queued) {
					socket.close();
				}
			}
		}
	}

	private static boolean connectTimesOut(ServerSocket listener) throws IOException {
		try (Socket probe = new Socket()) {
			probe.connect(new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort()), 300);
			return false;
		}
		catch (SocketTimeoutException ex) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Waits until Redis ran the acquire its caller gave up on, then until its key is gone,
	 * long before its TTL; the key is free for the next caller at once.
	 */
	private void assertLateAcquireDeleted(RedisLockStore store, String key, long scriptsBefore) {
		await().atMost(AWAIT).until(() -> scriptCalls() > scriptsBefore);
		await().atMost(AWAIT).until(() -> redis.commands().exists(key) == 0);
		AcquireResult next = Stages.join(store.acquire(new LockRequest(key, TTL)));
		assertThat(next).isInstanceOf(AcquireResult.Acquired.class);
		Stages.join(((AcquireResult.Acquired) next).handle().release());
	}

	private RedisLockStore warmStore(Duration lettuceTimeout, Duration acquireTimeout) {
		LettuceConnectionFactory factory = factory(redis.host(), redis.port(), lettuceTimeout, Duration.ofSeconds(10));
		RedisLockStore store = store(factory, acquireTimeout, 0);
		// The first connection of a cold client may take longer than the timeouts.
		await().atMost(AWAIT).until(() -> Stages.join(store.acquire(new LockRequest("lock:late:warm-up",
				Duration.ofSeconds(5)))) instanceof AcquireResult.Acquired acquired && Stages.join(acquired.handle().release()) != null);
		return store;
	}

	private RedisLockStore store(LettuceConnectionFactory factory, Duration acquireTimeout, int replicasToAck) {
		RedisLockStore store = new RedisLockStore(factory, acquireTimeout, replicasToAck);
		this.resources.add(factory::destroy);
		this.resources.add(0, store);
		return store;
	}

	private static LettuceConnectionFactory factory(String host, int port, Duration commandTimeout,
			Duration connectTimeout) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
				LettuceClientConfiguration.builder()
					.commandTimeout(commandTimeout)
					.clientOptions(ClientOptions.builder()
						.socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
						.build())
					.build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static LockStoreException failed(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		return ((AcquireResult.Failed) result).cause();
	}

	/** Scripts Redis ran: the acquire scripts and the releases. */
	private static long scriptCalls() {
		String stats = redis.commands().info("commandstats");
		long calls = 0;
		for (String command : List.of("evalsha", "eval")) {
			Matcher matcher = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(stats);
			calls += matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
		}
		return calls;
	}

}
