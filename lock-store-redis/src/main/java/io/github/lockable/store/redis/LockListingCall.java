package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.async.RedisKeyAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import io.github.lockable.store.LockListing;
import io.github.lockable.store.StoredLock;

/**
 * Lists the locks under a prefix: {@code SCAN MATCH <prefix>* COUNT 500}, on every master
 * in turn on a Cluster, at most {@value #MAX_SCANS} times in all and within the store's
 * timeout, then every key's GET and PTTL, pipelined. Keys that vanished, keys
 * of another type than a string, and the store's own keys (fencing counters and delay
 * markers, {@code lockable:fence:*}) are left out; a key seen twice (on two masters while
 * its slot moves) is listed once.
 */
final class LockListingCall {

	private static final int MAX_SCANS = 200;

	private static final String FENCE_PREFIX = "lockable:fence:";

	private final CallFailures failures;

	private final RedisConnections connections;

	private final String prefix;

	private final int limit;

	private final long start = System.nanoTime();

	private final TreeMap<String, StoredLock> found = new TreeMap<>();

	/** SCANs sent so far; one at a time, each after the previous one's keys were read. */
	private int scans;

	LockListingCall(CallFailures failures, RedisConnections connections, String prefix, int limit) {
		this.failures = failures;
		this.connections = connections;
		this.prefix = prefix;
		this.limit = Math.max(1, limit);
	}

	CompletableFuture<LockListing> start() {
		long timeoutMillis = TimeUnit.NANOSECONDS.toMillis(this.failures.timeoutNanos());
		return this.connections.opening()
			.thenCompose(this::scan)
			.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
			.exceptionallyCompose((ex) -> CompletableFuture.failedFuture(failure(ex)));
	}

	private Throwable failure(Throwable ex) {
		NativeConnection connection = this.connections.current();
		Throwable cause = CallFailures.unwrap(ex);
		return (connection != null) ? this.failures.of(connection, this.start, cause) : CallFailures.of(cause);
	}

	private CompletableFuture<LockListing> scan(NativeConnection connection) {
		ScanArgs args = ScanArgs.Builder.matches(escape(this.prefix) + "*").limit(500);
		if (connection.commands() instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
			return scanMasters(connection, cluster.getStatefulConnection(), args).thenApply(this::listing);
		}
		return scanNode(connection, connection.commands(), args, ScanCursor.INITIAL).thenApply(this::listing);
	}

	/**
	 * Every master in turn, each on its own node connection, opened asynchronously: Lettuce's
	 * cluster-wide SCAN opens the next node's connection blocking the calling thread, which
	 * is a Lettuce I/O thread when it follows the previous answer.
	 */
	private CompletableFuture<Boolean> scanMasters(NativeConnection connection,
			StatefulRedisClusterConnection<byte[], byte[]> cluster, ScanArgs args) {
		List<String> masters = cluster.getPartitions()
			.stream()
			.filter((node) -> node.getRole().isUpstream())
			.map(RedisClusterNode::getNodeId)
			.sorted()
			.toList();
		CompletableFuture<Boolean> more = CompletableFuture.completedFuture(false);
		for (String master : masters) {
			more = more.thenCompose((stopped) -> stopped ? CompletableFuture.completedFuture(true)
					: cluster.getConnectionAsync(master)
						.thenCompose((node) -> scanNode(connection, node.async(), args, ScanCursor.INITIAL)));
		}
		return more;
	}

	/**
	 * Scans one server from the cursor on, reading the keys of each answer before the next
	 * SCAN, until its end, the limit or the scans allowed.
	 * @return whether it stopped before the server's end
	 */
	private CompletableFuture<Boolean> scanNode(NativeConnection connection,
			RedisKeyAsyncCommands<byte[], byte[]> node, ScanArgs args, ScanCursor cursor) {
		if (full() || this.scans >= MAX_SCANS) {
			return CompletableFuture.completedFuture(true);
		}
		this.scans++;
		return node.scan(cursor, args)
			.toCompletableFuture()
			.thenCompose((next) -> read(connection, next.getKeys())
				.thenCompose((none) -> next.isFinished() ? CompletableFuture.completedFuture(false)
						: scanNode(connection, node, args, next)));
	}

	private CompletableFuture<Void> read(NativeConnection connection, List<byte[]> keys) {
		List<CompletableFuture<?>> reads = new ArrayList<>();
		for (byte[] key : keys) {
			String name = new String(key, StandardCharsets.UTF_8);
			if (name.startsWith(FENCE_PREFIX)) {
				continue;
			}
			CompletableFuture<byte[]> value = connection.commands()
				.get(key)
				.toCompletableFuture()
				.exceptionallyCompose(LockListingCall::noString);
			CompletableFuture<Long> pttl = connection.commands().pttl(key).toCompletableFuture();
			reads.add(value.thenAcceptBoth(pttl, (v, ttl) -> found(name, v, ttl)));
		}
		return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
	}

	/** A key of another type (a hash, a list) under the prefix is no lock. */
	private static CompletableFuture<byte[]> noString(Throwable ex) {
		Throwable cause = CallFailures.unwrap(ex);
		if (cause instanceof RedisCommandExecutionException refused && refused.getMessage() != null
				&& refused.getMessage().startsWith("WRONGTYPE")) {
			return CompletableFuture.completedFuture(null);
		}
		return CompletableFuture.failedFuture(ex);
	}

	private synchronized void found(String key, byte[] value, Long pttl) {
		if (value == null || pttl == null || pttl == -2) {
			return;
		}
		LockValues.Metadata metadata = LockValues.metadata(value);
		Duration ttlLeft = Duration.ofMillis(Math.max(0, pttl));
		this.found.put(key, new StoredLock(key, ttlLeft, (metadata != null) ? metadata.holder() : null,
				(metadata != null) ? metadata.acquiredAt() : null));
	}

	private synchronized boolean full() {
		return this.found.size() > this.limit;
	}

	private synchronized LockListing listing(boolean more) {
		List<StoredLock> locks = new ArrayList<>(this.found.values());
		boolean truncated = more || locks.size() > this.limit;
		return new LockListing(locks.subList(0, Math.min(this.limit, locks.size())), truncated);
	}

	/** The prefix as a SCAN pattern: glob characters escaped. */
	private static String escape(String prefix) {
		StringBuilder pattern = new StringBuilder(prefix.length());
		for (char c : prefix.toCharArray()) {
			if ("*?[]\\^".indexOf(c) >= 0) {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.toString();
	}

}
