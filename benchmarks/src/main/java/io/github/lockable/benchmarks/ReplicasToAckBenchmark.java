package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.redis.RedisSentinelTestServer;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The cost of {@code lockable.redis.replicas-to-ack}: one lock cycle (acquire, release)
 * through {@link RedisLockStore} on a master with one replica behind Sentinel, with the
 * acquire answering at once (0) or after WAIT 1 (1). Each thread locks its own key. Run
 * with {@code -t 1} and {@code -t 16}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReplicasToAckBenchmark {

	private static final Duration TTL = Duration.ofSeconds(30);

	@State(Scope.Benchmark)
	public static class Sentinel {

		@Param({ "0", "1" })
		int replicasToAck;

		LettuceConnectionFactory connectionFactory;

		RedisLockStore store;

		final AtomicInteger threads = new AtomicInteger();

		@Setup(Level.Trial)
		public void start() {
			RedisSentinelTestServer sentinel = RedisSentinelTestServer.shared();
			RedisSentinelConfiguration configuration = new RedisSentinelConfiguration();
			configuration.master(RedisSentinelTestServer.MASTER_NAME);
			for (String node : sentinel.sentinelNodes().split(",")) {
				String[] hostAndPort = node.split(":");
				configuration.sentinel(hostAndPort[0], Integer.parseInt(hostAndPort[1]));
			}
			this.connectionFactory = new LettuceConnectionFactory(configuration);
			this.connectionFactory.afterPropertiesSet();
			this.connectionFactory.start();
			this.store = new RedisLockStore(this.connectionFactory, Duration.ofSeconds(2), this.replicasToAck);
		}

		@TearDown(Level.Trial)
		public void stop() {
			this.store.close();
			this.connectionFactory.destroy();
		}

	}

	@State(Scope.Thread)
	public static class ThreadKey {

		String key;

		@Setup(Level.Trial)
		public void assign(Sentinel sentinel) {
			this.key = "bench:replicas:" + sentinel.threads.incrementAndGet();
		}

	}

	@Benchmark
	public ReleaseResult lockCycle(Sentinel sentinel, ThreadKey thread) {
		AcquireResult result = sentinel.store.acquire(new LockRequest(thread.key, TTL)).toCompletableFuture().join();
		if (!(result instanceof AcquireResult.Acquired acquired)) {
			throw new IllegalStateException("Expected the lock, got " + result);
		}
		return acquired.handle().release().toCompletableFuture().join();
	}

}
