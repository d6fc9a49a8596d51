package io.github.lockable.sample.load;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the sample, each in its own JVM, lock on one Redis under load: 32
 * clients send 100,000 requests to a locked handler over 8 keys, half to each instance.
 * The handler's checks (see {@link LoadCheckController}) are counted in Redis, outside
 * both JVMs, and must find no overlap, no stale fencing token and no lost update; every
 * request must be answered with 2xx or the policy's 409.
 * <p>
 * A subclass names the Redis: the connection properties the instances get, and a
 * connection of the test's own to read the checks' counters. {@code TwoInstancesUnderLoadIT}
 * runs it on a standalone server; a Redis Cluster subclass passes
 * {@code --spring.data.redis.cluster.nodes=...} and a cluster connection. A subclass may
 * lock elsewhere (the JDBC store on PostgreSQL) and keep the checks in Redis: it adds the
 * store's arguments and reads what remains of the locks in {@link #lockRemains(int)}.
 */
@Tag("slow")
public abstract class MutualExclusionUnderLoad {

	private static final int CLIENTS = 32;

	private static final int REQUESTS = 100_000;

	private static final Duration DEADLINE = Duration.ofMinutes(10);

	/**
	 * What the summary line calls the Redis, for example {@code standalone Redis}.
	 * @return the name of the topology
	 */
	protected abstract String topology();

	/**
	 * The arguments that point an instance at the Redis, for example
	 * {@code --spring.data.redis.host=127.0.0.1} and {@code --spring.data.redis.port=6379}.
	 * @return the connection arguments
	 */
	protected abstract List<String> connectionArguments();

	/**
	 * A connection of the test's own to the same Redis, to read the checks' counters.
	 * @return synchronous commands
	 */
	protected abstract RedisClusterCommands<String, String> redis();

	/**
	 * How many requests the run sends; a store slower than Redis may send fewer.
	 * @return the request count
	 */
	protected int requests() {
		return REQUESTS;
	}

	/**
	 * Whether the lock of a slot is still held after the run, read in the store the
	 * instances lock on: by default the Redis of {@link #redis()}.
	 * @param slot the slot
	 * @return whether its lock remains
	 */
	protected boolean lockRemains(int slot) {
		return redis().exists(LoadCheckKeys.fullLockKey(slot)) != 0;
	}

	@Test
	void twoInstancesNeverHoldOneKeyAtOnce(@TempDir Path logs) throws Exception {
		LoadCheckKeys keys = new LoadCheckKeys(UUID.randomUUID());
		List<String> arguments = new ArrayList<>(connectionArguments());
		arguments.add("--load-check.run=" + keys.run());
		// Two JVMs, Redis and the load share a machine that may be busy with more: this test is
		// about exclusion, not latency, so a store call that waits for the CPU is not a failure.
		arguments.add("--lockable.acquire-timeout=15s");
		arguments.add("--spring.data.redis.timeout=15s");
		try (SampleInstance first = SampleInstance.start(logs.resolve("first.log"), arguments);
				SampleInstance second = SampleInstance.start(logs.resolve("second.log"), arguments)) {
			List<URI> instances = List.of(first.awaitReady().uri(), second.awaitReady().uri());
			LoadFigures figures = new LoadGenerator(CLIENTS, requests(), DEADLINE).run(instances, 409);

			long overlaps = 0;
			long staleFences = 0;
			long lostUpdates = 0;
			for (int slot = 0; slot < LoadCheckKeys.SLOTS; slot++) {
				overlaps += count(keys.overlaps(slot));
				staleFences += count(keys.staleFences(slot));
				lostUpdates += Math.abs(figures.successes()[slot] - count(keys.updates(slot)));
			}
			System.out.println(figures.summary(topology(), overlaps, staleFences, lostUpdates));

			assertThat(figures.failures()).as("answers other than 2xx or 409").isEmpty();
			assertThat(figures.totalSuccesses() + figures.conflicts()).isEqualTo(requests());
			assertThat(figures.conflicts()).as("requests that met a held lock").isPositive();
			assertThat(figures.successesByInstance()).as("successes by instance").doesNotContain(0);
			for (int slot = 0; slot < LoadCheckKeys.SLOTS; slot++) {
				assertThat(figures.successes()[slot]).as("successes on slot %d", slot).isPositive();
				assertThat(count(keys.updates(slot))).as("lost-update counter of slot %d", slot)
					.isEqualTo(figures.successes()[slot]);
				assertThat(count(keys.overlaps(slot))).as("overlaps on slot %d", slot).isZero();
				assertThat(count(keys.staleFences(slot))).as("stale fencing tokens on slot %d", slot).isZero();
				assertThat(count(keys.occupancy(slot))).as("holders of slot %d after the run", slot).isZero();
				assertThat(lockRemains(slot)).as("lock of slot %d after the run", slot).isFalse();
			}
			for (SampleInstance instance : List.of(first, second)) {
				assertThat(instance.linesContaining(" ERROR ")).isEmpty();
				assertThat(instance.linesContaining("lock expired before release")).isEmpty();
			}
		}
	}

	private long count(String key) {
		String value = redis().get(key);
		return (value != null) ? Long.parseLong(value) : 0;
	}

}
