package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;

import io.github.lockable.store.LockListing;
import io.github.lockable.store.StoredLock;

/**
 * Lists the locks under a prefix: {@code SCAN MATCH <prefix>* COUNT 500}, which Lettuce
 * runs on every master in turn on a Cluster, at most {@value #MAX_SCANS} times and within
 * the store's timeout, then every key's GET and PTTL, pipelined. Keys that vanished and
 * the store's own keys (fencing counters and delay markers, {@code lockable:fence:*}) are
 * left out.
 */
final class LockListingCall {

	private static final int MAX_SCANS = 200;

	private static final String FENCE_PREFIX = "lockable:fence:";

	private final CallFailures failures;

	private final RedisConnections connections;

	private final String prefix;

	private final int limit;

	private final long start = System.nanoTime();

	private final List<StoredLock> found = new ArrayList<>();

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
		return next(connection, connection.commands().scan(args), args, 1);
	}

	private CompletableFuture<LockListing> next(NativeConnection connection, RedisFuture<KeyScanCursor<byte[]>> scan,
			ScanArgs args, int scans) {
		return scan.toCompletableFuture().thenCompose((cursor) -> read(connection, cursor.getKeys()).thenCompose((none) -> {
			boolean more = !cursor.isFinished();
			if (this.found.size() > this.limit || !more || scans >= MAX_SCANS) {
				return CompletableFuture.completedFuture(listing(more));
			}
			return next(connection, connection.commands().scan(cursor, args), args, scans + 1);
		}));
	}

	private CompletableFuture<Void> read(NativeConnection connection, List<byte[]> keys) {
		List<CompletableFuture<?>> reads = new ArrayList<>();
		for (byte[] key : keys) {
			String name = new String(key, StandardCharsets.UTF_8);
			if (name.startsWith(FENCE_PREFIX)) {
				continue;
			}
			CompletableFuture<byte[]> value = connection.commands().get(key).toCompletableFuture();
			CompletableFuture<Long> pttl = connection.commands().pttl(key).toCompletableFuture();
			reads.add(value.thenAcceptBoth(pttl, (v, ttl) -> found(name, v, ttl)));
		}
		return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
	}

	private synchronized void found(String key, byte[] value, Long pttl) {
		if (value == null || pttl == null || pttl == -2) {
			return;
		}
		LockValues.Metadata metadata = LockValues.metadata(value);
		Duration ttlLeft = Duration.ofMillis(Math.max(0, pttl));
		this.found.add(new StoredLock(key, ttlLeft, (metadata != null) ? metadata.holder() : null,
				(metadata != null) ? metadata.acquiredAt() : null));
	}

	private synchronized LockListing listing(boolean more) {
		List<StoredLock> locks = new ArrayList<>(this.found);
		locks.sort(Comparator.comparing(StoredLock::key));
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
