package io.github.lockable.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One lock cycle (acquire, release) through {@link RedisLockStore}, side by side with the
 * same commands on a raw Lettuce connection, against one local Redis server.
 * <p>
 * {@code rawLettuceScripts} sends exactly what the store sends (the acquire and release
 * scripts by EVALSHA); {@code rawLettuceSetNx} is the plainer {@code SET NX PX} plus the
 * release script, for reference. Each thread locks its own key, so the figures measure the
 * client path, not contention. Run with {@code -t 1} and {@code -t 16}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RedisStoreBenchmark {

	/**
	 * A copy of the store's acquire script, character for character: KEYS[1] the lock,
	 * KEYS[2] a fencing counter; answers the fencing token (at least 1) when taken.
	 * {@link RawLettuceContender#verifyScripts} checks that the store still sends it.
	 */
	static final String ACQUIRE = """
			if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
			  return redis.call('INCR', KEYS[2])
			end
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  redis.call('PEXPIRE', KEYS[1], ARGV[2])
			  return redis.call('INCR', KEYS[2])
			end
			return -2 - redis.call('PTTL', KEYS[1])
			""";

	/**
	 * A copy of the store's release script: compare-and-delete, then a publish on the
	 * lock's wake-up channel.
	 */
	static final String RELEASE = """
			if redis.call('GET', KEYS[1]) ~= ARGV[1] then
			  return 0
			end
			local deleted = redis.call('DEL', KEYS[1])
			local channel = '{' .. KEYS[1] .. '}:released'
			local sharded = redis.pcall('SPUBLISH', channel, '')
			if type(sharded) == 'table' and sharded.err then
			  redis.pcall('PUBLISH', channel, '')
			end
			return deleted
			""";

	private static final Duration TTL = Duration.ofSeconds(30);

	@State(Scope.Benchmark)
	public static class Redis {

		RedisTestServer server;

		RedisClient client;

		StatefulRedisConnection<byte[], byte[]> rawConnection;

		RedisCommands<byte[], byte[]> raw;

		String acquireSha;

		String releaseSha;

		LettuceConnectionFactory connectionFactory;

		RedisLockStore store;

		final AtomicInteger threads = new AtomicInteger();

		@Setup(Level.Trial)
		public void start() {
			this.server = RedisTestServer.shared();
			this.client = RedisClient.create(RedisURI.create(this.server.url()));
			this.rawConnection = this.client.connect(ByteArrayCodec.INSTANCE);
			this.raw = this.rawConnection.sync();
			this.acquireSha = this.raw.scriptLoad(ACQUIRE.getBytes(StandardCharsets.UTF_8));
			this.releaseSha = this.raw.scriptLoad(RELEASE.getBytes(StandardCharsets.UTF_8));
			this.connectionFactory = this.server.connectionFactory(Duration.ofSeconds(5));
			this.store = new RedisLockStore(this.connectionFactory, Duration.ofSeconds(2));
		}

		@TearDown(Level.Trial)
		public void stop() {
			this.store.close();
			this.connectionFactory.destroy();
			this.rawConnection.close();
			this.client.shutdown();
		}

	}

	@State(Scope.Thread)
	public static class ThreadKey {

		String key;

		byte[] keyBytes;

		byte[][] acquireKeys;

		@Setup(Level.Trial)
		public void assign(Redis redis) {
			this.key = "bench:" + redis.threads.incrementAndGet();
			this.keyBytes = this.key.getBytes(StandardCharsets.UTF_8);
			this.acquireKeys = RawLettuceContender.acquireKeys(this.key);
		}

	}

	@Benchmark
	public ReleaseResult lockableStore(Redis redis, ThreadKey thread) {
		AcquireResult result = redis.store.acquire(new LockRequest(thread.key, TTL)).toCompletableFuture().join();
		if (!(result instanceof AcquireResult.Acquired acquired)) {
			throw new IllegalStateException("Expected the lock, got " + result);
		}
		return acquired.handle().release().toCompletableFuture().join();
	}

	@Benchmark
	public Long rawLettuceScripts(Redis redis, ThreadKey thread) {
		byte[] token = LockTokens.next().getBytes(StandardCharsets.US_ASCII);
		Long acquired = redis.raw.evalsha(redis.acquireSha, ScriptOutputType.INTEGER, thread.acquireKeys, token,
				Long.toString(TTL.toMillis()).getBytes(StandardCharsets.US_ASCII));
		if (acquired <= 0) {
			throw new IllegalStateException("Expected the lock, got " + acquired);
		}
		byte[][] keys = { thread.keyBytes };
		return redis.raw.evalsha(redis.releaseSha, ScriptOutputType.INTEGER, keys, token);
	}

	@Benchmark
	public Long rawLettuceSetNx(Redis redis, ThreadKey thread) {
		byte[] token = LockTokens.next().getBytes(StandardCharsets.US_ASCII);
		String ok = redis.raw.set(thread.keyBytes, token, SetArgs.Builder.nx().px(TTL.toMillis()));
		if (!"OK".equals(ok)) {
			throw new IllegalStateException("Expected the lock, got " + ok);
		}
		byte[][] keys = { thread.keyBytes };
		return redis.raw.evalsha(redis.releaseSha, ScriptOutputType.INTEGER, keys, token);
	}

}
