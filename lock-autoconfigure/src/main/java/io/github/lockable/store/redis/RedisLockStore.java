package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A {@link LockStore} on Redis (standalone, Sentinel or Cluster), through the application's
 * {@link LettuceConnectionFactory}.
 * <p>
 * A lock is one string key holding the owner's random token, with a PX expiry. Acquire and
 * release are one round trip each: a Lua script run by EVALSHA, falling back to EVAL when
 * the server answers NOSCRIPT (after a restart or SCRIPT FLUSH). The store talks to
 * Lettuce's asynchronous API on the factory's shared native connection, with keys and
 * arguments encoded once, and bounds every command by its timeout: a server that does not
 * answer in time becomes a store failure, never a hung thread.
 * <p>
 * Every script touches only {@code KEYS[1]}, so it runs on a Redis Cluster. Companion keys
 * of a lock, if any are added, must be named {@code {<lock key>}:<suffix>}: a hash tag equal
 * to the whole lock key puts them in the lock key's slot.
 */
public final class RedisLockStore implements LockStore, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisLockStore.class);

	private final LettuceConnectionFactory connectionFactory;

	private final Duration timeout;

	private final long timeoutNanos;

	private final Object connectionMonitor = new Object();

	private volatile NativeConnection connection;

	/**
	 * Creates a store on the given connection factory.
	 * @param connectionFactory the application's Lettuce connection factory
	 * @param timeout longest a single store call may take before it counts as a failure
	 */
	public RedisLockStore(LettuceConnectionFactory connectionFactory, Duration timeout) {
		this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory must not be null");
		this.timeout = Objects.requireNonNull(timeout, "timeout must not be null");
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, was " + timeout);
		}
		this.timeoutNanos = timeout.toNanos();
	}

	@Override
	public String name() {
		return "redis";
	}

	@Override
	public AcquireResult acquire(LockRequest request) {
		String token = LockTokens.next();
		byte[] key = encode(request.key());
		byte[] tokenBytes = encode(token);
		Long answer;
		try {
			answer = execute(LockScript.ACQUIRE, key, tokenBytes, encode(request.ttl().toMillis()));
		}
		catch (LockStoreException ex) {
			if (ex instanceof RedisTimeoutException) {
				cleanUpAfterTimeout(key, tokenBytes);
			}
			return new AcquireResult.Failed(ex);
		}
		return acquireResult(request, token, answer);
	}

	@Override
	public CompletionStage<AcquireResult> acquireAsync(LockRequest request) {
		String token = LockTokens.next();
		byte[] key = encode(request.key());
		byte[] tokenBytes = encode(token);
		return this.<Long>executeAsync(LockScript.ACQUIRE, key, tokenBytes, encode(request.ttl().toMillis()))
			.handle((answer, ex) -> {
				if (ex == null) {
					return acquireResult(request, token, answer);
				}
				LockStoreException failure = storeException(ex);
				if (failure instanceof RedisTimeoutException) {
					cleanUpAfterTimeout(key, tokenBytes);
				}
				return new AcquireResult.Failed(failure);
			});
	}

	private AcquireResult acquireResult(LockRequest request, String token, Long answer) {
		if (answer == LockScript.ACQUIRED) {
			LockLease lease = new LockLease(request.key(), token, Instant.now(), request.ttl());
			return new AcquireResult.Acquired(new LockHandle(this, lease));
		}
		return new AcquireResult.Held((answer >= 0) ? Duration.ofMillis(answer) : null, null);
	}

	/**
	 * The acquire may still reach the server after we gave up on it. Queue a release with
	 * the same token behind it on the same connection, so such a lock does not linger for
	 * its whole TTL. The release is a no-op if the acquire never ran.
	 */
	private void cleanUpAfterTimeout(byte[] key, byte[] token) {
		this.<Long>executeAsync(LockScript.RELEASE, key, token).whenComplete((deleted, ex) -> {
			if (ex == null && deleted == 1L && logger.isDebugEnabled()) {
				logger.debug("Deleted a lock whose acquire answered after its timeout");
			}
		});
	}

	@Override
	public ReleaseResult release(LockLease lease) {
		Long deleted = execute(LockScript.RELEASE, encode(lease.key()), encode(lease.token()));
		return releaseResult(deleted);
	}

	@Override
	public CompletionStage<ReleaseResult> releaseAsync(LockLease lease) {
		return this.<Long>executeAsync(LockScript.RELEASE, encode(lease.key()), encode(lease.token()))
			.thenApply(RedisLockStore::releaseResult);
	}

	private static ReleaseResult releaseResult(Long deleted) {
		return (deleted == 1L) ? ReleaseResult.RELEASED : ReleaseResult.NOT_OWNER;
	}

	@Override
	public boolean extend(LockLease lease, Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		Long extended = execute(LockScript.EXTEND, encode(lease.key()), encode(lease.token()), encode(ttl.toMillis()));
		return extended == 1L;
	}

	private <T> T execute(LockScript script, byte[] key, byte[]... args) {
		NativeConnection connection = connection();
		// Opening the connection is bounded by the connect timeout; the command has its own.
		long deadline = System.nanoTime() + this.timeoutNanos;
		byte[][] keys = { key };
		try {
			try {
				return await(connection,
						connection.commands.evalsha(script.sha1(), ScriptOutputType.INTEGER, keys, args), deadline);
			}
			catch (RedisNoScriptException ex) {
				return await(connection,
						connection.commands.eval(script.source(), ScriptOutputType.INTEGER, keys, args), deadline);
			}
		}
		catch (LockStoreException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw storeException(connection, ex);
		}
	}

	/**
	 * Waits for the answer until the deadline. An interrupt does not cut the wait short: the
	 * wait is bounded anyway, and a release abandoned halfway would leave the lock for its
	 * whole TTL. The interrupt is kept for the caller.
	 */
	private <T> T await(NativeConnection connection, RedisFuture<T> future, long deadline) {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return future.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
				catch (ExecutionException ex) {
					if (ex.getCause() instanceof RedisNoScriptException noScript) {
						throw noScript;
					}
					throw storeException(connection, ex.getCause());
				}
				catch (TimeoutException ex) {
					future.cancel(false);
					throw new RedisTimeoutException(this.timeout);
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private <T> CompletableFuture<T> executeAsync(LockScript script, byte[] key, byte[]... args) {
		NativeConnection connection;
		try {
			connection = connection();
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		byte[][] keys = { key };
		RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands;
		CompletableFuture<T> result = commands.<T>evalsha(script.sha1(), ScriptOutputType.INTEGER, keys, args)
			.toCompletableFuture()
			.exceptionallyCompose((ex) -> (unwrap(ex) instanceof RedisNoScriptException)
					? commands.<T>eval(script.source(), ScriptOutputType.INTEGER, keys, args).toCompletableFuture()
					: CompletableFuture.failedFuture(ex));
		return result.orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS).handle((value, ex) -> {
			if (ex != null) {
				throw new CompletionException(storeException(connection, unwrap(ex)));
			}
			return value;
		});
	}

	private NativeConnection connection() {
		NativeConnection current = this.connection;
		if (current != null) {
			return current;
		}
		synchronized (this.connectionMonitor) {
			if (this.connection == null) {
				this.connection = openConnection();
			}
			return this.connection;
		}
	}

	private NativeConnection openConnection() {
		RedisConnection connection;
		try {
			connection = this.connectionFactory.getConnection();
		}
		catch (RuntimeException ex) {
			throw new LockStoreException("Cannot connect to Redis: " + ex.getMessage(), "UNREACHABLE", ex);
		}
		if (!(connection instanceof LettuceConnection lettuce)) {
			connection.close();
			throw new LockStoreException("Expected a Lettuce connection but got " + connection.getClass().getName());
		}
		return new NativeConnection(lettuce, lettuce.getNativeConnection());
	}

	private LockStoreException storeException(NativeConnection failed, Throwable ex) {
		if (ex instanceof LockStoreException storeException) {
			return storeException;
		}
		if (ex instanceof TimeoutException) {
			return new RedisTimeoutException(this.timeout);
		}
		if (!(ex instanceof RedisCommandExecutionException)) {
			// Not an error answer from the server: the connection may be closed for good.
			// The next call asks the factory again, which opens a new one if needed.
			invalidate(failed);
		}
		return new LockStoreException("Redis command failed: " + ex.getMessage(), ex);
	}

	private void invalidate(NativeConnection failed) {
		synchronized (this.connectionMonitor) {
			if (this.connection == failed) {
				this.connection = null;
				failed.close();
			}
		}
	}

	private LockStoreException storeException(Throwable ex) {
		Throwable cause = unwrap(ex);
		return (cause instanceof LockStoreException storeException) ? storeException
				: new LockStoreException("Redis command failed: " + cause.getMessage(), cause);
	}

	private static Throwable unwrap(Throwable ex) {
		Throwable current = ex;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

	private static byte[] encode(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] encode(long value) {
		return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Gives back the connection this store took from the factory. The factory's shared
	 * connection stays open; a dedicated one returns to its pool.
	 */
	@Override
	public void close() {
		synchronized (this.connectionMonitor) {
			NativeConnection current = this.connection;
			this.connection = null;
			if (current != null) {
				current.close();
			}
		}
	}

	private record NativeConnection(LettuceConnection springConnection,
			RedisClusterAsyncCommands<byte[], byte[]> commands) {

		void close() {
			try {
				this.springConnection.close();
			}
			catch (RuntimeException ex) {
				logger.debug("Failed to close the Redis connection", ex);
			}
		}

	}

	/**
	 * Redis did not answer within the store's timeout.
	 */
	static final class RedisTimeoutException extends LockStoreException {

		RedisTimeoutException(Duration timeout) {
			super("Redis did not answer within " + timeout.toMillis() + "ms (lockable.acquire-timeout)", "TIMEOUT", null);
		}

	}

}
