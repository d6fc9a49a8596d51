package io.github.lockable.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.FlushMode;
import io.lettuce.core.api.sync.RedisCommands;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.lang.Nullable;

/**
 * What the holder metadata beside the token costs the Redis store per lock: the server's
 * memory per held lock and its CPU per lock cycle, with a request that names no holder and
 * with one that names a realistic holder, on a {@code redis-server} of its own on the
 * loopback interface (no persistence).
 * <p>
 * Memory: holds {@code --locks} locks (TTL 10 minutes) of each kind in turn, on an empty
 * server, and divides the growth of {@code INFO memory}'s {@code used_memory} by their
 * count; also {@code MEMORY USAGE} of one key. Three runs of each kind, alternating; the
 * median is reported. CPU: {@code --cycles} acquire and release cycles of each kind from
 * {@code --threads} threads (a key per thread), in alternating rounds, dividing the server's
 * {@code used_cpu_sys + used_cpu_user}, its time in the store's commands
 * ({@code INFO commandstats}, without the I/O) and the benchmark JVM's CPU time by the cycles.
 * Prints a Markdown report and writes it to {@code benchmarks/results/<UTC>-holder-metadata.md}.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.HolderMetadataCost [--locks=10000] [--cycles=200000] [--threads=16] [--results=benchmarks/results]
 * </pre>
 */
public final class HolderMetadataCost {

	/** What a {@code @Lockable} method of a service names: host-like instance, pid, method. */
	static final LockHolder HOLDER = new LockHolder("orders-service@ip-10-0-3-17", 12345,
			"ArchiveService.archive(UUID)");

	private static final Duration HELD_TTL = Duration.ofMinutes(10);

	private static final Duration CYCLE_TTL = Duration.ofSeconds(30);

	private static final int MEMORY_RUNS = 3;

	private static final int CPU_ROUNDS = 20;

	/** The whole run's bound: a slow machine reports fewer cycles rather than running on. */
	private static final Duration BOUND = Duration.ofSeconds(100);

	private static final DateTimeFormatter FILE_NAME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'",
			Locale.ROOT);

	private HolderMetadataCost() {
	}

	public static void main(String[] args) throws Exception {
		int locks = 10_000;
		int cycles = 200_000;
		int threads = 16;
		Path results = Path.of("benchmarks", "results");
		for (String arg : args) {
			String value = arg.substring(arg.indexOf('=') + 1);
			if (arg.startsWith("--locks=")) {
				locks = Integer.parseInt(value);
			}
			else if (arg.startsWith("--cycles=")) {
				cycles = Integer.parseInt(value);
			}
			else if (arg.startsWith("--threads=")) {
				threads = Integer.parseInt(value);
			}
			else if (arg.startsWith("--results=")) {
				results = Path.of(value);
			}
		}
		ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
		String loadBefore = Machine.loadAverage();
		long deadline = System.nanoTime() + BOUND.toNanos();
		int status = 0;
		try (RedisTestServer redis = RedisTestServer.process().start()) {
			LettuceConnectionFactory connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
			try (RedisLockStore store = new RedisLockStore(connectionFactory, Duration.ofSeconds(5))) {
				HolderMetadataReport report = new HolderMetadataReport(locks, threads);
				// Connects the store, so that its connection's buffers are not counted in the first run
				store.acquire(new LockRequest("bench:connect", HELD_TTL)).toCompletableFuture().join();
				for (int run = 0; run < MEMORY_RUNS; run++) {
					for (boolean holder : (run % 2 == 0) ? new boolean[] { false, true } : new boolean[] { true, false }) {
						report.add(memory(redis, store, holder ? HOLDER : null, locks, threads, deadline));
					}
				}
				redis.commands().flushall(FlushMode.SYNC);
				// Warm-up: the JIT, the connection's buffers, the release script's SHA
				cycles(redis, store, null, cycles / 10, threads, deadline);
				cycles(redis, store, HOLDER, cycles / 10, threads, deadline);
				for (int round = 0; round < CPU_ROUNDS; round++) {
					// ABBA, so that a drift of the machine's load weighs on both alike
					boolean holderFirst = round % 2 == 1;
					for (boolean holder : new boolean[] { holderFirst, !holderFirst }) {
						report.add(cycles(redis, store, holder ? HOLDER : null, cycles / CPU_ROUNDS, threads,
								deadline));
					}
				}
				String markdown = report.markdown(Machine.command(HolderMetadataCost.class, args), started,
						loadBefore, redis);
				System.out.println(markdown);
				Path file = results.resolve(FILE_NAME.format(started) + "-holder-metadata.md");
				Files.createDirectories(results);
				Files.writeString(file, markdown);
				System.out.println("Written to " + file);
			}
			finally {
				connectionFactory.destroy();
			}
		}
		catch (Exception | Error ex) {
			ex.printStackTrace();
			status = 1;
		}
		System.exit(status);
	}

	/**
	 * Holds {@code locks} locks on an empty server and measures what they take.
	 */
	static HolderMetadataReport.Memory memory(RedisTestServer redis, RedisLockStore store,
			@Nullable LockHolder holder, int locks, int threads, long deadline) throws InterruptedException {
		RedisCommands<String, String> commands = redis.commands();
		commands.flushall(FlushMode.SYNC);
		long before = settledUsedMemory(commands);
		// The same keys for both kinds, so that only the values differ
		String prefix = "bench:held:";
		int held = run(threads, locks, deadline, (thread, i) -> {
			AcquireResult result = store.acquire(new LockRequest(prefix + i, HELD_TTL, false, holder))
				.toCompletableFuture()
				.join();
			if (!(result instanceof AcquireResult.Acquired)) {
				throw new IllegalStateException("Expected the lock " + prefix + i + ", got " + result);
			}
		});
		long after = settledUsedMemory(commands);
		long keys = commands.dbsize();
		if (keys != held) {
			throw new IllegalStateException("Expected " + held + " keys, found " + keys);
		}
		String sample = prefix + 0;
		HolderMetadataReport.Memory memory = new HolderMetadataReport.Memory(holder != null, held, (after - before) / (double) held,
				commands.memoryUsage(sample), commands.strlen(sample), allocator(commands));
		System.out.println(memory);
		commands.flushall(FlushMode.SYNC);
		return memory;
	}

	/**
	 * Runs acquire and release cycles, a key per thread, and measures the CPU they took.
	 */
	static HolderMetadataReport.Cycles cycles(RedisTestServer redis, RedisLockStore store, @Nullable LockHolder holder, int cycles,
			int threads, long deadline) throws InterruptedException {
		String prefix = "bench:cycle:" + System.nanoTime() + ":";
		redis.commands().configResetstat();
		long redisBefore = Machine.redisCpuMicros(redis);
		long jvmBefore = jvmCpuNanos();
		long startedAt = System.nanoTime();
		int done = run(threads, cycles, deadline, (thread, i) -> {
			AcquireResult result = store.acquire(new LockRequest(prefix + thread, CYCLE_TTL, false, holder))
				.toCompletableFuture()
				.join();
			if (!(result instanceof AcquireResult.Acquired acquired)) {
				throw new IllegalStateException("Expected the lock " + prefix + thread + ", got " + result);
			}
			acquired.handle().release().toCompletableFuture().join();
		});
		long nanos = System.nanoTime() - startedAt;
		HolderMetadataReport.Cycles measured = new HolderMetadataReport.Cycles(holder != null, done, nanos, Machine.redisCpuMicros(redis) - redisBefore,
				commandMicros(redis.commands()), jvmCpuNanos() - jvmBefore);
		System.out.println(measured);
		return measured;
	}

	/**
	 * Runs {@code count} operations from {@code threads} threads, fewer if the deadline
	 * passes first.
	 * @return how many ran
	 */
	private static int run(int threads, int count, long deadline, Operation operation) throws InterruptedException {
		AtomicInteger next = new AtomicInteger();
		AtomicInteger done = new AtomicInteger();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			Thread worker = new Thread(() -> {
				try {
					for (int i = next.getAndIncrement(); i < count && failure.get() == null
							&& System.nanoTime() - deadline < 0; i = next.getAndIncrement()) {
						operation.run(thread, i);
						done.incrementAndGet();
					}
				}
				catch (RuntimeException ex) {
					failure.compareAndSet(null, ex);
				}
			}, "holder-metadata-" + t);
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}
		if (failure.get() != null) {
			throw new IllegalStateException("A lock operation failed", failure.get());
		}
		return done.get();
	}

	/**
	 * {@code used_memory}, once it stays the same for three reads 50 ms apart (a dict may
	 * still be rehashing, a client's buffers shrinking), at most 3 seconds.
	 */
	private static long settledUsedMemory(RedisCommands<String, String> commands) throws InterruptedException {
		long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
		long last = usedMemory(commands);
		int same = 0;
		while (same < 2 && System.nanoTime() - until < 0) {
			Thread.sleep(50);
			long now = usedMemory(commands);
			same = (now == last) ? same + 1 : 0;
			last = now;
		}
		return last;
	}

	private static long usedMemory(RedisCommands<String, String> commands) {
		return Long.parseLong(infoField(commands, "memory", "used_memory"));
	}

	private static String allocator(RedisCommands<String, String> commands) {
		return infoField(commands, "memory", "mem_allocator");
	}

	static String infoField(RedisCommands<String, String> commands, String section, String field) {
		return commands.info(section)
			.lines()
			.filter((line) -> line.startsWith(field + ":"))
			.map((line) -> line.substring(field.length() + 1).trim())
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No " + field + " in INFO " + section));
	}

	/**
	 * The time the server spent in the store's commands since {@code CONFIG RESETSTAT}: the
	 * acquire's SET and the release script's EVALSHA (with the commands it calls), without
	 * reading requests and writing replies.
	 * @return microseconds, from {@code INFO commandstats}
	 */
	private static long commandMicros(RedisCommands<String, String> commands) {
		return commands.info("commandstats")
			.lines()
			.filter((line) -> line.startsWith("cmdstat_set:") || line.startsWith("cmdstat_evalsha:")
					|| line.startsWith("cmdstat_eval:"))
			.mapToLong((line) -> Arrays.stream(line.substring(line.indexOf(':') + 1).split(","))
				.filter((field) -> field.startsWith("usec="))
				.mapToLong((field) -> Long.parseLong(field.substring(5)))
				.sum())
			.sum();
	}

	private static long jvmCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return 0;
	}

	@FunctionalInterface
	private interface Operation {

		void run(int thread, int index);

	}

}
