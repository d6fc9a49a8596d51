package io.github.lockable.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.test.app.SoakSnapshot;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Long runs of lock cycles through the auto-configured {@link LockTemplate} on the Redis
 * store, with metrics on, checking that a run leaves nothing behind: the heap after a full
 * collection, the threads, the open files, the server's clients and subscriptions and its
 * keys are the same after the run as after a warm-up that created every connection, thread
 * and fencing counter the run needs.
 * <p>
 * Heap tolerance: {@value #HEAP_TOLERANCE_MB} MB over 900,000 cycles, less than 5 bytes a
 * cycle, so even one leaked object per cycle (16 bytes at least) fails the run; what
 * remains is noise of a full collection (buffers, class metadata, JIT-resolved constants).
 */
@Tag("slow")
@SpringBootTest(classes = LockSoakIT.SoakApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "lockable.store=redis", "lockable.key-prefix=soak", "lockable.acquire-timeout=15s" })
class LockSoakIT {

	private static final int HEAP_TOLERANCE_MB = 4;

	private static final int THREADS = 8;

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final Duration RUN_LIMIT = Duration.ofMinutes(10);

	/** How long a waited-for lock is held, so that the other waiters of its key wait. */
	private static final long HOLD_NANOS = 100_000;

	@Autowired
	private LockTemplate locks;

	private final RedisCommands<String, String> redis = RedisTestServer.shared().commands();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void aMillionLockCyclesLeaveNothingBehind() throws Exception {
		int keysPerThread = 64;
		int warmUp = 100_000;
		int cycles = 1_000_000;
		// Each thread its own keys: every attempt must get its lock, or one was not released.
		IntFunction<String> key = (n) -> "cycle:" + (n % THREADS) + ":" + ((n / THREADS) % keysPerThread);
		SoakSnapshot before = SoakSnapshot.take(this.redis);
		Outcome first = run(warmUp, (n) -> this.locks.tryLock(key.apply(n), TTL), 0);
		SoakSnapshot warm = SoakSnapshot.take(this.redis);
		Outcome rest = run(cycles - warmUp, (n) -> this.locks.tryLock(key.apply(warmUp + n), TTL), 0);
		SoakSnapshot end = SoakSnapshot.take(this.redis);
		Outcome all = first.plus(rest);

		Set<Integer> slots = new HashSet<>();
		for (int n = 0; n < THREADS * keysPerThread; n++) {
			slots.add(SlotHash.getSlot("soak:" + key.apply(n)));
		}
		Set<String> counters = end.keysAddedSince(before);
		List<String> lockKeys = this.redis.keys("soak:*");
		System.out.println(String.format("Soak: %s; %s; %d lock keys left, %d fencing counters added (%d slots used)",
				all.describe(THREADS * keysPerThread), describe(warmUp, warm, end), lockKeys.size(), counters.size(),
				slots.size()));

		assertThat(all.missed()).as("attempts that did not get their own key").isZero();
		assertThat(all.acquired()).isEqualTo(cycles);
		assertNothingLeaked(warm, end);
		assertThat(lockKeys).as("lock keys left").isEmpty();
		assertThat(counters).as("keys the run added")
			.allMatch((added) -> added.matches("lockable:fence:\\{\\w{1,3}}"));
		assertThat(counters).as("fencing counters, one per slot used").hasSizeLessThanOrEqualTo(slots.size());
	}

	@Test
	void waitersLeaveNoSubscriptionBehind() throws Exception {
		int keys = 2;
		int warmUp = 1_000;
		int cycles = 20_000;
		// Four threads on each key: most attempts find it held and wait for its release.
		IntFunction<Optional<HeldLock>> waiting = (n) -> this.locks.tryLock("wait:" + (n % keys), TTL,
				Duration.ofSeconds(30));
		long subscribesBefore = subscribeCalls();
		Outcome first = run(warmUp, waiting, HOLD_NANOS);
		SoakSnapshot warm = SoakSnapshot.take(this.redis);
		Outcome rest = run(cycles - warmUp, waiting, HOLD_NANOS);
		SoakSnapshot end = SoakSnapshot.take(this.redis);
		Outcome all = first.plus(rest);
		long subscribes = subscribeCalls() - subscribesBefore;
		List<String> lockKeys = this.redis.keys("soak:*");
		System.out.println(String.format("Wait soak: %s, %,d subscribe calls (waits); %s; %d lock keys left",
				all.describe(keys), subscribes, describe(warmUp, warm, end), lockKeys.size()));

		assertThat(all.missed()).as("waits that ended without the lock").isZero();
		assertThat(subscribes).as("SSUBSCRIBE or SUBSCRIBE calls: waits that subscribed").isGreaterThan(cycles / 10);
		assertNothingLeaked(warm, end);
		assertThat(lockKeys).as("lock keys left").isEmpty();
	}

	private void assertNothingLeaked(SoakSnapshot warm, SoakSnapshot end) {
		assertThat(end.heapUsed() - warm.heapUsed()).as("heap growth after GC, bytes")
			.isLessThanOrEqualTo(HEAP_TOLERANCE_MB * 1024L * 1024L);
		assertThat(end.threadsAddedSince(warm)).as("threads started by the run and still alive").isEmpty();
		// A connection the run closed may still be closing on its event loop.
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(SoakSnapshot.take(this.redis).descriptorsAddedSince(warm))
				.as("sockets, pipes and event descriptors the run added")
				.isEmpty());
		assertThat(end.clients()).as("Redis clients").isEqualTo(warm.clients());
		assertThat(end.subscriptions()).as("subscriptions of every Redis client").isZero();
		assertThat(end.channels()).as("channels with subscribers").isEmpty();
		assertThat(end.keysAddedSince(warm)).as("keys added after the warm-up").isEmpty();
	}

	private static String describe(int warmUp, SoakSnapshot warm, SoakSnapshot end) {
		return String.format(
				"heap after GC %s after %,d cycles, %s at the end; threads %d -> %d; open files %d -> %d; "
						+ "Redis clients %d -> %d, subscriptions %d, channels %d; keys %d -> %d",
				SoakSnapshot.megabytes(warm.heapUsed()), warmUp, SoakSnapshot.megabytes(end.heapUsed()),
				warm.threads().size(), end.threads().size(), warm.openFiles().size(), end.openFiles().size(),
				warm.clients(), end.clients(), end.subscriptions(), end.channels().size(), warm.keys().size(),
				end.keys().size());
	}

	/**
	 * Runs the attempts on {@value #THREADS} threads, each attempt numbered, and closes every
	 * lock it gets, after holding it for the given time if any.
	 */
	private static Outcome run(int attempts, IntFunction<Optional<HeldLock>> attempt, long holdNanos)
			throws Exception {
		LongAdder acquired = new LongAdder();
		LongAdder missed = new LongAdder();
		long start = System.nanoTime();
		List<Thread> started = new CopyOnWriteArrayList<>();
		ThreadFactory factory = Executors.defaultThreadFactory();
		ExecutorService threads = Executors.newFixedThreadPool(THREADS, (task) -> {
			Thread thread = factory.newThread(task);
			started.add(thread);
			return thread;
		});
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int thread = t;
				workers.add(threads.submit(() -> {
					for (int n = thread; n < attempts; n += THREADS) {
						Optional<HeldLock> lock = attempt.apply(n);
						if (lock.isEmpty()) {
							missed.increment();
							continue;
						}
						try (HeldLock held = lock.get()) {
							acquired.increment();
							if (holdNanos > 0) {
								LockSupport.parkNanos(holdNanos);
							}
						}
					}
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(RUN_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		finally {
			threads.shutdownNow();
			assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
			// A terminated pool may still have workers on their way out, alive for the snapshot.
			for (Thread thread : started) {
				thread.join(TimeUnit.SECONDS.toMillis(30));
				assertThat(thread.isAlive()).as("%s ended", thread.getName()).isFalse();
			}
		}
		return new Outcome(acquired.sum(), missed.sum(), Duration.ofNanos(System.nanoTime() - start));
	}

	/**
	 * How many SSUBSCRIBE and SUBSCRIBE commands the server ran so far (SUBSCRIBE where it
	 * has no sharded pub/sub).
	 */
	private long subscribeCalls() {
		return this.redis.info("commandstats")
			.lines()
			.filter((line) -> line.startsWith("cmdstat_ssubscribe:") || line.startsWith("cmdstat_subscribe:"))
			.map((line) -> line.replaceAll("^cmdstat_s?subscribe:calls=(\\d+),.*", "$1"))
			.mapToLong(Long::parseLong)
			.sum();
	}

	private record Outcome(long acquired, long missed, Duration took) {

		Outcome plus(Outcome other) {
			return new Outcome(this.acquired + other.acquired, this.missed + other.missed, this.took.plus(other.took));
		}

		String describe(int keys) {
			long attempts = this.acquired + this.missed;
			return String.format("%,d lock cycles over %d keys on %d threads in %.1fs (%,d cycles/s), %d not acquired",
					attempts, keys, THREADS, this.took.toMillis() / 1000.0,
					Math.round(attempts / (this.took.toNanos() / 1e9)), this.missed);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class SoakApplication {

	}

}
