package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockLease;
import io.github.lockable.store.ReleaseResult;

/**
 * The calls on a held lock: release, extend, and a fencing token issued after the acquire,
 * each one script on the store's connection, and what its answer means. A lock found gone
 * makes the probe look whether Redis evicted keys.
 */
final class LeaseCalls {

	private static final Logger logger = LoggerFactory.getLogger(RedisLockStore.class);

	private final CallFailures failures;

	private final RedisConnections connections;

	private final RedisServerProbe probe;

	/** What a release's answer means, made once: a call's meaning captures nothing of the call. */
	private final Function<Long, ReleaseResult> releaseAnswer = this::releaseResult;

	private final Function<Long, Boolean> extendAnswer = this::extended;

	/**
	 * @param failures what failures mean
	 * @param connections the connection the scripts run on
	 * @param probe the probe told of a lock found gone
	 */
	LeaseCalls(CallFailures failures, RedisConnections connections, RedisServerProbe probe) {
		this.failures = failures;
		this.connections = connections;
		this.probe = probe;
	}

	CompletableFuture<ReleaseResult> release(LockLease lease) {
		return script(LockScript.RELEASE, new byte[][] { RedisLockStore.encode(lease.key()) }, new byte[][] { RedisLockStore.encode(lease.token()) },
				this.releaseAnswer);
	}

	CompletableFuture<Boolean> extend(LockLease lease, Duration ttl) {
		return script(LockScript.EXTEND, new byte[][] { RedisLockStore.encode(lease.key()) },
				new byte[][] { RedisLockStore.encode(lease.token()), encodeExtension(ttl) }, this.extendAnswer);
	}

	/**
	 * A fencing token issued now by {@link LockScript#FENCE}, only while the lease's token
	 * still holds the lock.
	 */
	CompletableFuture<Long> fencingToken(LockLease lease) {
		byte[] key = RedisLockStore.encode(lease.key());
		return script(LockScript.FENCE, new byte[][] { key, FencingCounters.counterKey(key) },
				new byte[][] { RedisLockStore.encode(lease.token()) }, Function.identity());
	}

	private <T> CompletableFuture<T> script(LockScript script, byte[][] keys, byte[][] args, Function<Long, T> meaning) {
		return new ScriptCall<>(this.failures, script, keys, args, meaning).start(this.connections);
	}

	private static byte[] encodeExtension(Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		return RedisLockStore.encode(ttl.toMillis());
	}

	private ReleaseResult releaseResult(Long deleted) {
		if (deleted == 1L) {
			return ReleaseResult.RELEASED;
		}
		lockFoundGone();
		return ReleaseResult.NOT_OWNER;
	}

	private boolean extended(Long extended) {
		if (extended == 1L) {
			return true;
		}
		lockFoundGone();
		return false;
	}

	private void lockFoundGone() {
		try {
			this.probe.lockFoundGone(this.connections.current());
		}
		catch (RuntimeException ex) {
			logger.debug("Failed to look at Redis's evictions", ex);
		}
	}

}
