package io.github.lockable.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
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

import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The product path, a {@code @Lockable} method called through its Spring proxy with a
 * named resolver, side by side with the same lock cycle on raw Lettuce.
 * <ul>
 * <li>{@code redis}: proxy + resolver + Redis store; compare with
 * {@link #rawLettuce}, the plain {@code SET NX PX} and the store's release script on the
 * same server;</li>
 * <li>{@code noIoStore}: proxy + resolver + lock manager on a store that answers without
 * I/O; minus {@link #direct} it is Lockable's own CPU per call, apart from the store's
 * client;</li>
 * <li>{@code memory}: the same on the in-memory store.</li>
 * </ul>
 * And what the application watches ({@code observation}):
 * <ul>
 * <li>{@code none}: no meter registry, no observation registry;</li>
 * <li>{@code meters}: Lockable's meters on a {@code SimpleMeterRegistry};</li>
 * <li>{@code observed}: the meters, and an observation registry whose
 * {@code DefaultMeterObservationHandler} turns both observations of every call into timers,
 * as Spring Boot Actuator sets it up.</li>
 * </ul>
 * Run with {@code -t 1} and {@code -t 16}; add {@code -prof gc} for allocation per call.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LockablePathBenchmark {

	@State(Scope.Benchmark)
	public static class Application {

		@Param({ "redis", "noIoStore", "memory" })
		public String store;

		@Param({ "none", "meters", "observed" })
		public String observation;

		ConfigurableApplicationContext context;

		LockedService service;

		LockedService target;

		RedisClient client;

		StatefulRedisConnection<byte[], byte[]> connection;

		RedisCommands<byte[], byte[]> raw;

		String releaseSha;

		final AtomicInteger threads = new AtomicInteger();

		@Setup(Level.Trial)
		public void start() {
			RedisTestServer redis = RedisTestServer.shared();
			SpringApplicationBuilder builder = new SpringApplicationBuilder(BenchmarkApplication.class)
				.web(WebApplicationType.NONE)
				.logStartupInfo(false)
				.properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
						"logging.level.root=WARN", "lockable.store=" + (this.store.equals("memory") ? "memory" : "redis"));
			if (this.store.equals("noIoStore")) {
				builder.initializers((context) -> context.getBeanFactory()
					.registerSingleton("noIoStore", new NoIoLockStore()));
			}
			if (!this.observation.equals("none")) {
				SimpleMeterRegistry meters = new SimpleMeterRegistry();
				builder.initializers((context) -> context.getBeanFactory().registerSingleton("meterRegistry", meters));
				if (this.observation.equals("observed")) {
					ObservationRegistry observations = ObservationRegistry.create();
					observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
					builder.initializers((context) -> context.getBeanFactory()
						.registerSingleton("observationRegistry", observations));
				}
			}
			this.context = builder.run();
			this.service = this.context.getBean(LockedService.class);
			this.target = new LockedService();
			this.client = RedisClient.create(RedisURI.create(redis.url()));
			this.connection = this.client.connect(ByteArrayCodec.INSTANCE);
			this.raw = this.connection.sync();
			this.releaseSha = this.raw.scriptLoad(RedisStoreBenchmark.RELEASE.getBytes(StandardCharsets.UTF_8));
		}

		@TearDown(Level.Trial)
		public void stop() {
			this.connection.close();
			this.client.shutdown();
			this.context.close();
		}

	}

	@State(Scope.Thread)
	public static class ThreadItem {

		String item;

		byte[] key;

		@Setup(Level.Trial)
		public void assign(Application application) {
			this.item = "item-" + application.threads.incrementAndGet();
			this.key = ("lock:item:" + this.item).getBytes(StandardCharsets.UTF_8);
		}

	}

	@Benchmark
	public int lockable(Application application, ThreadItem thread) {
		return application.service.work(thread.item);
	}

	@Benchmark
	public int direct(Application application, ThreadItem thread) {
		return application.target.work(thread.item);
	}

	@Benchmark
	public Long rawLettuce(Application application, ThreadItem thread) {
		byte[] token = LockTokens.next().getBytes(StandardCharsets.US_ASCII);
		byte[][] keys = { thread.key };
		if (application.raw.set(thread.key, token, SetArgs.Builder.nx().px(30_000)) == null) {
			throw new IllegalStateException("Expected the lock");
		}
		int result = application.target.work(new String(thread.key, StandardCharsets.UTF_8));
		Long released = application.raw.evalsha(application.releaseSha, ScriptOutputType.INTEGER, keys, token);
		return released + result;
	}

	@SpringBootConfiguration
	// No DataSource from properties: the Redis runs have none, and JdbcSideBySide registers its pool itself.
	@EnableAutoConfiguration(excludeName = { "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
			"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
	static class BenchmarkApplication {

		@Bean
		LockedService lockedService() {
			return new LockedService();
		}

		@Bean
		LockableContenders.GuardedWork guardedWork() {
			return new LockableContenders.GuardedWork();
		}

		@Bean
		LockKeyResolver item() {
			return (invocation) -> "item:" + invocation.argument("item", String.class);
		}

	}

	public static class LockedService {

		@Lockable(resolver = "item", ttl = "30s")
		public int work(String item) {
			return item.length();
		}

	}

	/**
	 * Grants every lock at once, with the allocations of a real store (lease, handle,
	 * result), so the benchmark sees Lockable's own work and nothing else.
	 */
	static final class NoIoLockStore implements LockStore {

		private static final String TOKEN = LockTokens.next();

		private static final CompletionStage<ReleaseResult> RELEASED = CompletableFuture
			.completedFuture(ReleaseResult.RELEASED);

		private static final CompletionStage<Boolean> EXTENDED = CompletableFuture.completedFuture(true);

		@Override
		public String name() {
			return "no-io";
		}

		@Override
		public java.util.concurrent.CompletionStage<Long> fencingToken(LockLease lease) {
			return java.util.concurrent.CompletableFuture.completedFuture(lease.fencingToken());
		}

		@Override
		public CompletionStage<AcquireResult> acquire(LockRequest request) {
			return CompletableFuture.completedFuture(new AcquireResult.Acquired(
					new LockHandle(this, new LockLease(request.key(), TOKEN, 1, Instant.now(), request.ttl()))));
		}

		@Override
		public CompletionStage<ReleaseResult> release(LockLease lease) {
			return RELEASED;
		}

		@Override
		public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
			return EXTENDED;
		}

	}

}
