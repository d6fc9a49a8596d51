package io.github.lockable.test.app;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.management.UnixOperatingSystemMXBean;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * What a soak can leak, at one moment: this JVM's heap after a full collection, its threads
 * and open file descriptors, and on the Redis server the connected clients, their
 * subscriptions and the keys.
 *
 * @param heapUsed bytes of heap in use after {@code System.gc()}
 * @param threads the names of the live threads, without the common pool's workers (which
 * come and go by themselves)
 * @param openFiles open file descriptors of this JVM (sockets included)
 * @param clients the clients connected to the server
 * @param subscriptions channels, patterns and shard channels subscribed by every client
 * @param channels the channels and shard channels with at least one subscriber
 * @param keys every key of the server
 */
public record SoakSnapshot(long heapUsed, Set<String> threads, long openFiles, int clients, long subscriptions,
		List<String> channels, Set<String> keys) {

	private static final Pattern SUBSCRIPTIONS = Pattern.compile("\\b(?:sub|psub|ssub)=(\\d+)");

	/**
	 * Takes a snapshot, after a full garbage collection. The caller's worker threads must
	 * have ended.
	 * @param redis an admin connection to the server
	 * @return the snapshot
	 */
	public static SoakSnapshot take(RedisCommands<String, String> redis) {
		long heapUsed = heapUsedAfterGc();
		Set<String> threads = new TreeSet<>();
		Thread.getAllStackTraces()
			.keySet()
			.stream()
			.map(Thread::getName)
			.filter((name) -> !name.startsWith("ForkJoinPool.commonPool-worker"))
			.forEach(threads::add);
		long openFiles = ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getOpenFileDescriptorCount();
		List<String> clients = redis.clientList().lines().filter((line) -> !line.isBlank()).toList();
		long subscriptions = 0;
		for (String client : clients) {
			Matcher matcher = SUBSCRIPTIONS.matcher(client);
			while (matcher.find()) {
				subscriptions += Long.parseLong(matcher.group(1));
			}
		}
		return new SoakSnapshot(heapUsed, threads, openFiles, clients.size(), subscriptions, channels(redis),
				new TreeSet<>(redis.keys("*")));
	}

	private static List<String> channels(RedisCommands<String, String> redis) {
		List<String> channels = new ArrayList<>(redis.pubsubChannels());
		try {
			channels.addAll(redis.pubsubShardChannels());
		}
		catch (RedisCommandExecutionException ex) {
			// Redis 6 has no sharded pub/sub; the store subscribes the classic way there.
		}
		return channels;
	}

	/**
	 * Heap in use after full collections; the smallest of three, as a collection may run
	 * while finalizers or reference handlers still hold garbage of the one before.
	 */
	private static long heapUsedAfterGc() {
		long[] used = new long[3];
		for (int i = 0; i < used.length; i++) {
			System.gc();
			used[i] = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		}
		return Arrays.stream(used).min().getAsLong();
	}

	/**
	 * The keys of this snapshot that were not in an earlier one.
	 * @param earlier the earlier snapshot
	 * @return the new keys
	 */
	public Set<String> keysAddedSince(SoakSnapshot earlier) {
		Set<String> added = new TreeSet<>(this.keys);
		added.removeAll(earlier.keys);
		return added;
	}

	/**
	 * Threads alive now that were not in an earlier snapshot.
	 * @param earlier the earlier snapshot
	 * @return the names of the new threads
	 */
	public Set<String> threadsAddedSince(SoakSnapshot earlier) {
		Set<String> added = new TreeSet<>(this.threads);
		added.removeAll(earlier.threads);
		return added;
	}

	public static String megabytes(long bytes) {
		return String.format("%.1f MB", bytes / 1024.0 / 1024.0);
	}

}
