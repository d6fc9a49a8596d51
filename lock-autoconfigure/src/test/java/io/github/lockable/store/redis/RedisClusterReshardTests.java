package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.redis.RedisClusterTestServer;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Slots move, with their locks and fencing counters, while clients lock and unlock.
 */
@Tag("slow")
class RedisClusterReshardTests {

	private static final Logger logger = LoggerFactory.getLogger(RedisClusterReshardTests.class);

	private static final int THREADS = 8;

	private static final int MOVED_SLOTS = 300;

	private static final int KEYS_PER_GROUP = 16;

	private static final Duration TTL = Duration.ofSeconds(10);

	private final RedisClusterTestServer cluster = RedisClusterTestServer.shared();

	@Test
	void locksStayExclusiveAndFencingTokensIncreaseWhileSlotsMove() throws Exception {
		int from = this.cluster.ports().get(0);
		int to = this.cluster.ports().get(1);
		List<String> keys = keys(from);
		List<String> moving = keys.subList(0, KEYS_PER_GROUP);
		assertThat(moving).allMatch((key) -> this.cluster.masterPortOf(key) == from);

		AtomicIntegerArray inside = new AtomicIntegerArray(keys.size());
		AtomicLongArray lastFencingToken = new AtomicLongArray(keys.size());
		AtomicIntegerArray acquiredAfterReshard = new AtomicIntegerArray(keys.size());
		AtomicInteger acquired = new AtomicInteger();
		AtomicInteger held = new AtomicInteger();
		AtomicInteger doubled = new AtomicInteger();
		AtomicInteger tokensOutOfOrder = new AtomicInteger();
		AtomicInteger lost = new AtomicInteger();
		Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
		AtomicBoolean resharded = new AtomicBoolean();
		AtomicBoolean movedThere = new AtomicBoolean();
		AtomicBoolean stop = new AtomicBoolean();

		try (ConfigurableApplicationContext context = TopologyLockStoreTests.start(this.cluster,
				Map.of("lockable.acquire-timeout", "2s"))) {
			LockStore store = context.getBean(LockStore.class);
			ExecutorService pool = Executors.newFixedThreadPool(THREADS);
			List<CompletableFuture<Void>> clients = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				clients.add(CompletableFuture.runAsync(() -> {
					while (!stop.get()) {
						int k = ThreadLocalRandom.current().nextInt(keys.size());
						AcquireResult result = Stages.join(store.acquire(new LockRequest(keys.get(k), TTL, true)));
						if (result instanceof AcquireResult.Acquired lock) {
							if (inside.incrementAndGet(k) > 1) {
								doubled.incrementAndGet();
							}
							long token = lock.handle().lease().fencingToken();
							if (lastFencingToken.getAndSet(k, token) >= token) {
								tokensOutOfOrder.incrementAndGet();
							}
							acquired.incrementAndGet();
							if (resharded.get()) {
								acquiredAfterReshard.incrementAndGet(k);
							}
							Thread.yield();
							inside.decrementAndGet(k);
							if (Stages.join(lock.handle().release()) != ReleaseResult.RELEASED) {
								lost.incrementAndGet();
							}
						}
						else if (result instanceof AcquireResult.Failed failed) {
							failures.computeIfAbsent(failed.cause().getMessage(), (message) -> new AtomicInteger())
								.incrementAndGet();
						}
						else {
							held.incrementAndGet();
						}
					}
				}, pool));
			}
			try {
				await().atMost(Duration.ofSeconds(10)).until(() -> acquired.get() > 100);
				long start = System.nanoTime();
				this.cluster.reshard(from, to, MOVED_SLOTS);
				movedThere.set(moving.stream().allMatch((key) -> this.cluster.masterPortOf(key) == to));
				// The lowest slots of the taking master now are the ones it took: they move back.
				this.cluster.reshard(to, from, MOVED_SLOTS);
				logger.info("Moved {} slots there and back in {} ms", MOVED_SLOTS,
						(System.nanoTime() - start) / 1_000_000);
				resharded.set(true);
				// Long enough for every key to be taken again after the moves.
				await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).until(() -> {
					for (int k = 0; k < keys.size(); k++) {
						if (acquiredAfterReshard.get(k) == 0) {
							return false;
						}
					}
					return true;
				});
			}
			finally {
				stop.set(true);
				CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
				pool.shutdown();
			}
		}
		int failed = failures.values().stream().mapToInt(AtomicInteger::get).sum();
		logger.info("{} keys ({} in moving slots), {} acquired, {} held, {} failed: {}", keys.size(), moving.size(),
				acquired.get(), held.get(), failed, failures);
		assertThat(movedThere).as("moving keys served by the taking master after the first move").isTrue();
		assertThat(moving).allMatch((key) -> this.cluster.masterPortOf(key) == from);
		assertThat(doubled.get()).as("two holders of one key at once").isZero();
		assertThat(tokensOutOfOrder.get()).as("fencing tokens not increasing").isZero();
		assertThat(lost.get()).as("locks gone before their release").isZero();
		for (int k = 0; k < keys.size(); k++) {
			assertThat(acquiredAfterReshard.get(k)).as("acquisitions of %s after the move", keys.get(k)).isPositive();
		}
		// A script on a slot whose lock key moved and fencing counter did not yet, or the
		// reverse, is refused with TRYAGAIN while the slot migrates: at most one per moved slot.
		assertThat(failed).as("failed acquires: %s", failures).isLessThanOrEqualTo(MOVED_SLOTS);
		assertThat(failures.keySet()).allMatch((message) -> message.contains("TRYAGAIN") || message.contains("ASK")
				|| message.contains("MOVED"), "only migration answers");
	}

	/**
	 * {@value #KEYS_PER_GROUP} keys in the first slots of the giving master, which move,
	 * then as many elsewhere.
	 */
	private List<String> keys(int from) {
		Set<Integer> movingSlots = this.cluster.slotsOf(from).stream().sorted().limit(MOVED_SLOTS)
			.collect(Collectors.toSet());
		List<String> inMovingSlots = new ArrayList<>();
		List<String> elsewhere = new ArrayList<>();
		for (int i = 0; inMovingSlots.size() < KEYS_PER_GROUP || elsewhere.size() < KEYS_PER_GROUP; i++) {
			String key = "reshard:" + i;
			List<String> group = movingSlots.contains(SlotHash.getSlot(key)) ? inMovingSlots : elsewhere;
			if (group.size() < KEYS_PER_GROUP) {
				group.add(key);
			}
		}
		inMovingSlots.addAll(elsewhere);
		return inMovingSlots;
	}

}
