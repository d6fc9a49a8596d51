package io.github.lockable.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Lockable and raw Lettuce measured in alternating short rounds on the same server, so that
 * the noise of a shared machine hits both alike; prints the median of the per-round ratios.
 * JMH runs one benchmark after the other, and on a busy machine the drift between them can
 * be larger than the difference being measured.
 * <p>
 * Three contenders per round: the raw Lettuce lock cycle (acquire and release scripts by
 * EVALSHA on a plain {@code RedisClient} connection), the {@link RedisLockStore} on a Spring
 * Boot configured {@code LettuceConnectionFactory}, and the whole product path (a
 * {@code @Lockable} method called through its proxy, with a named resolver).
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.SideBySide [threads...] [--rounds=N] [--round-ms=N]
 * </pre>
 */
public final class SideBySide {

	private static final Duration TTL = Duration.ofSeconds(30);

	private SideBySide() {
	}

	public static void main(String[] args) throws Exception {
		List<Integer> threadCounts = new ArrayList<>();
		int rounds = 20;
		long roundMillis = 500;
		for (String arg : args) {
			if (arg.startsWith("--rounds=")) {
				rounds = Integer.parseInt(arg.substring(9));
			}
			else if (arg.startsWith("--round-ms=")) {
				roundMillis = Long.parseLong(arg.substring(11));
			}
			else {
				threadCounts.add(Integer.parseInt(arg));
			}
		}
		if (threadCounts.isEmpty()) {
			threadCounts = List.of(1, 16);
		}
		RedisTestServer redis = RedisTestServer.shared();
		RedisClient client = RedisClient.create(RedisURI.create(redis.url()));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(
				LockablePathBenchmark.BenchmarkApplication.class)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"logging.level.root=WARN", "lockable.store=redis", "lockable.acquire-timeout=2s")
			.run();
		try {
			RedisLockStore store = context.getBean(RedisLockStore.class);
			LockablePathBenchmark.LockedService service = context.getBean(LockablePathBenchmark.LockedService.class);
			LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
			System.out.printf("Lettuce factory: %s, client options timeout commands: %s%n",
					factory.getClass().getSimpleName(),
					factory.getClientConfiguration().getClientOptions().map((o) -> o.getTimeoutOptions().isTimeoutCommands()).orElse(null));
			for (int threads : threadCounts) {
				List<StatefulRedisConnection<byte[], byte[]>> rawConnections = List
					.of(client.connect(ByteArrayCodec.INSTANCE));
				RedisCommands<byte[], byte[]> raw = rawConnections.get(0).sync();
				String acquireSha = raw.scriptLoad(RedisStoreBenchmark.ACQUIRE.getBytes(StandardCharsets.UTF_8));
				String releaseSha = raw.scriptLoad(RedisStoreBenchmark.RELEASE.getBytes(StandardCharsets.UTF_8));
				IntFunction<Runnable> rawCycle = (thread) -> {
					byte[][] keys = { ("raw:" + thread).getBytes(StandardCharsets.UTF_8) };
					byte[] ttl = Long.toString(TTL.toMillis()).getBytes(StandardCharsets.US_ASCII);
					return () -> {
						byte[] token = LockTokens.next().getBytes(StandardCharsets.US_ASCII);
						Long acquired = raw.evalsha(acquireSha, ScriptOutputType.INTEGER, keys, token, ttl);
						if (acquired != -3L) {
							throw new IllegalStateException("raw: expected the lock, got " + acquired);
						}
						raw.evalsha(releaseSha, ScriptOutputType.INTEGER, keys, token);
					};
				};
				IntFunction<Runnable> storeCycle = (thread) -> {
					String key = "store:" + thread;
					return () -> {
						AcquireResult result = store.acquire(new LockRequest(key, TTL));
						if (!(result instanceof AcquireResult.Acquired acquired)) {
							throw new IllegalStateException("store: expected the lock, got " + result);
						}
						acquired.handle().release();
					};
				};
				IntFunction<Runnable> productCycle = (thread) -> {
					String item = "product-" + thread;
					return () -> service.work(item);
				};
				// Warm up every path.
				for (int i = 0; i < 3; i++) {
					measure(threads, rawCycle, roundMillis);
					measure(threads, storeCycle, roundMillis);
					measure(threads, productCycle, roundMillis);
				}
				double[] storeRatios = new double[rounds];
				double[] productRatios = new double[rounds];
				double[] rawRates = new double[rounds];
				for (int round = 0; round < rounds; round++) {
					double rawRate;
					double storeRate;
					double productRate;
					// Alternate the order so that neither side always follows the other.
					if (round % 2 == 0) {
						rawRate = measure(threads, rawCycle, roundMillis);
						storeRate = measure(threads, storeCycle, roundMillis);
						productRate = measure(threads, productCycle, roundMillis);
					}
					else {
						productRate = measure(threads, productCycle, roundMillis);
						storeRate = measure(threads, storeCycle, roundMillis);
						rawRate = measure(threads, rawCycle, roundMillis);
					}
					rawRates[round] = rawRate;
					storeRatios[round] = storeRate / rawRate;
					productRatios[round] = productRate / rawRate;
				}
				System.out.printf(
						"threads=%d rounds=%d x %dms: raw Lettuce %.0f ops/s (median); store/raw median %.3f [p25 %.3f, p75 %.3f]; "
								+ "@Lockable path/raw median %.3f [p25 %.3f, p75 %.3f]%n",
						threads, rounds, roundMillis, percentile(rawRates, 50), percentile(storeRatios, 50),
						percentile(storeRatios, 25), percentile(storeRatios, 75), percentile(productRatios, 50),
						percentile(productRatios, 25), percentile(productRatios, 75));
				rawConnections.forEach(StatefulRedisConnection::close);
			}
		}
		finally {
			context.close();
			client.shutdown();
			System.exit(0);
		}
	}

	private static double measure(int threads, IntFunction<Runnable> cycles, long millis) throws InterruptedException {
		LongAdder operations = new LongAdder();
		AtomicBoolean running = new AtomicBoolean(true);
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Runnable cycle = cycles.apply(t);
			Thread worker = new Thread(() -> {
				try {
					start.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				while (running.get()) {
					cycle.run();
					operations.increment();
				}
			});
			worker.start();
			workers.add(worker);
		}
		long begin = System.nanoTime();
		start.countDown();
		Thread.sleep(millis);
		running.set(false);
		for (Thread worker : workers) {
			worker.join();
		}
		return operations.sum() / ((System.nanoTime() - begin) / 1e9);
	}

	private static double percentile(double[] values, int percentile) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int index = (int) Math.round((percentile / 100.0) * (sorted.length - 1));
		return sorted[index];
	}

}
