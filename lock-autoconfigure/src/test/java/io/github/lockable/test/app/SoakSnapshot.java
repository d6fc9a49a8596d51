package io.github.lockable.test.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * @param openFiles what each open file descriptor of this JVM refers to (a path, or a
 * socket's or pipe's inode, as {@code /proc/self/fd} names it)
 * @param clients the clients connected to the server
 * @param subscriptions channels, patterns and shard channels subscribed by every client
 * @param channels the channels and shard channels with at least one subscriber
 * @param keys every key of the server
 */
public record SoakSnapshot(long heapUsed, Set<String> threads, List<String> openFiles, int clients, long subscriptions,
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
		List<String> openFiles = openFileTargets();
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

	private static List<String> openFileTargets() {
		List<String> targets = new ArrayList<>();
		try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
			for (Path descriptor : descriptors) {
				try {
					targets.add(Files.readSymbolicLink(descriptor).toString());
				}
				catch (NoSuchFileException ex) {
					// closed since the listing, the directory stream's own descriptor among them
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return targets;
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

	/**
	 * The kinds of descriptor, other than files, of which more are open now than in an
	 * earlier snapshot: sockets, pipes and event loops' descriptors ({@code eventpoll},
	 * {@code eventfd}), one entry per extra descriptor. Kinds, not identities: a connection
	 * replaced by a new one is not a leak. Files are left out: the JVM opens a jar or a data
	 * file the first time it needs a class or data from it and keeps it open, while what a
	 * lock store can leak is its connections and its event loops' descriptors.
	 * @param earlier the earlier snapshot
	 * @return the kinds of the extra descriptors, as {@code /proc/self/fd} names them
	 * without the inode ({@code socket}, {@code pipe}, {@code anon_inode:[eventpoll]})
	 */
	public List<String> descriptorsAddedSince(SoakSnapshot earlier) {
		List<String> added = new ArrayList<>(descriptorKinds(this.openFiles));
		descriptorKinds(earlier.openFiles).forEach(added::remove);
		return added;
	}

	private static List<String> descriptorKinds(List<String> openFiles) {
		return openFiles.stream()
			.filter((target) -> !target.startsWith("/"))
			.map((target) -> target.replaceFirst("^(socket|pipe):\\[\\d+]$", "$1"))
			.toList();
	}

	public static String megabytes(long bytes) {
		return String.format("%.1f MB", bytes / 1024.0 / 1024.0);
	}

}
