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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A {@link LockStore} on Redis (standalone, Sentinel or Cluster), through the application's
 * {@link LettuceConnectionFactory}.
 * <p>
 * A lock is one string key holding the owner's random token, with a PX expiry. Acquire is
 * the plain {@code SET key token NX PX ttl} (a refused one asks a script for the holder's
 * TTL), release one round trip: a Lua script run by EVALSHA, falling back to EVAL when the
 * server answers NOSCRIPT (after a restart or SCRIPT FLUSH). The store talks to
 * Lettuce's asynchronous API on a connection of its own, opened by a client of its own
 * with the factory's configuration (the factory's connections, which the application's
 * other Redis users share, are never touched), with keys and
 * arguments encoded once, and bounds every call by its timeout, opening the connection
 * included: a server that does not answer in time becomes a store failure, never a hung
 * thread. Lettuce's own command and connect timeouts end a call first where they are
 * shorter; whichever timeout fires, the failure has the code {@code TIMEOUT} and names it,
 * and an acquire cut short after it was sent is deleted again, owner-checked, once the
 * server runs it. A connection that answers nothing for
 * {@linkplain #silenceLimit(Duration) twice that timeout, at least 5 seconds}, is taken for
 * dead (half open) and replaced; a shorter stall keeps it, so that the commands queued on
 * it still run when the server answers again.
 * <p>
 * Every script touches only keys of one slot, so it runs on a Redis Cluster: release and
 * extend only the lock key, acquire the lock key and its fencing counter. Other companion
 * keys of a lock, if any are added, must be named {@code {<lock key>}:<suffix>}: a hash tag
 * equal to the whole lock key puts them in the lock key's slot.
 * <p>
 * <b>Fencing tokens.</b> A fencing token is issued owner-checked, by a script that
 * increments a counter only while the lock still holds the caller's token: when it is first
 * asked for ({@link #fencingToken(LockLease)}), or in the acquire's round trip when the
 * request asks for it up front ({@link LockRequest#withFencingToken()}). There is one
 * counter per Redis Cluster slot, named {@code lockable:fence:{<tag>}}, where {@code <tag>}
 * is a string of one to three characters chosen so that the counter is in that slot; every
 * lock key of the slot shares it. So at most 16,384 counters ever exist, however many
 * lock keys are used, and a standalone server uses the same names, which stay valid after
 * a move to a cluster. The counters are plain integer keys without expiry, never deleted
 * by the store, and outside the {@code lockable.key-prefix}. A token is strictly greater
 * than every token issued before for the same key only while its counter lives: deleting
 * a counter (DEL, FLUSHDB, an eviction policy that evicts keys without expiry such as
 * {@code allkeys-lru}, or a restart of a server that does not persist its data) lets the
 * tokens of that slot start again at 1.
 * <p>
 * A release publishes on the lock's wake-up channel {@code {<lock key>}:released}, sharded
 * pub/sub on Redis 7 and later, so that {@link #awaitRelease(String, Duration)} wakes
 * waiters at once; the store listens on one pub/sub connection of its own, opened when the
 * first caller waits.
 */
public final class RedisLockStore implements LockStore, LockStoreHealth, SmartLifecycle, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisLockStore.class);

	/** The shortest silence after which a connection is taken for dead. */
	private static final Duration MIN_SILENCE_LIMIT = Duration.ofSeconds(5);

	private final Duration timeout;

	private final long timeoutNanos;

	private final RedisTimeouts timeouts;

	/** The store's own client, from the application's factory's configuration. */
	private final StoreConnectionFactory client;

	private final RedisConnections connections;

	/** Where acquires run: the store's connection, or one of their own when they WAIT. */
	private final RedisConnections acquiring;

	private final int replicasToAck;

	private final RedisLockNotifications notifications;

	private final RedisServerProbe probe;

	private volatile boolean running;

	/**
	 * Creates a store on the given connection factory.
	 * @param connectionFactory the application's Lettuce connection factory
	 * @param timeout longest a single store call may take before it counts as a failure,
	 * opening the connection included
	 */
	public RedisLockStore(LettuceConnectionFactory connectionFactory, Duration timeout) {
		this(connectionFactory, timeout, 0);
	}

	/**
	 * Creates a store on the given connection factory whose acquires wait until the lock
	 * reached some replicas.
	 * <p>
	 * With {@code replicasToAck} above 0, a successful acquire is followed by Redis
	 * {@code WAIT replicasToAck <remaining timeout>} before it counts; if fewer replicas
	 * acknowledged the lock by then, the store deletes it again and the acquire fails with
	 * the code {@code REPLICATION}. WAIT counts the writes of the connection it runs on and
	 * blocks that connection, so acquires then run on a connection of their own, not on
	 * the one releases and extensions use, which do not wait. Not on
	 * Redis Cluster.
	 * @param connectionFactory the application's Lettuce connection factory
	 * @param timeout longest a single store call may take before it counts as a failure,
	 * opening the connection and waiting for replicas included
	 * @param replicasToAck how many replicas must have a lock before its acquire succeeds,
	 * 0 not to wait
	 */
	public RedisLockStore(LettuceConnectionFactory connectionFactory, Duration timeout, int replicasToAck) {
		this.timeout = Objects.requireNonNull(timeout, "timeout must not be null");
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, was " + timeout);
		}
		if (replicasToAck < 0) {
			throw new IllegalArgumentException("replicasToAck must be at least 0, was " + replicasToAck);
		}
		if (replicasToAck > 0 && connectionFactory.isClusterAware()) {
			throw new IllegalArgumentException("Waiting for replicas is not supported on Redis Cluster");
		}
		this.timeoutNanos = timeout.toNanos();
		this.replicasToAck = replicasToAck;
		this.timeouts = RedisTimeouts.of(connectionFactory);
		this.client = StoreConnectionFactory.of(connectionFactory);
		this.connections = new RedisConnections(this.client, silenceLimit(timeout), this.timeouts);
		this.acquiring = (replicasToAck > 0) ? new RedisConnections(this.client, silenceLimit(timeout), this.timeouts)
				: this.connections;
		this.notifications = new RedisLockNotifications(this.client, this::lockExists);
		this.probe = new RedisServerProbe(timeout);
	}

	/**
	 * How long a connection may answer nothing, counted from a command that timed out
	 * unanswered, before it is dropped: twice the timeout, and at least 5 seconds. A server
	 * that stalls for less (a slow script, a fork, a pause during a failover) keeps the
	 * connection, so the releases queued on it still run when it answers again; a
	 * half-open connection is replaced within a few timeouts.
	 * @param timeout the store's timeout
	 * @return the silence limit
	 */
	static Duration silenceLimit(Duration timeout) {
		Duration twice = timeout.multipliedBy(2);
		return (twice.compareTo(MIN_SILENCE_LIMIT) > 0) ? twice : MIN_SILENCE_LIMIT;
	}

	@Override
	public String name() {
		return "redis";
	}

	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		String token = LockTokens.next();
		byte[] key = encode(request.key());
		byte[] tokenBytes = encode(token);
		long requested = System.nanoTime();
		CompletableFuture<AcquireResult> acquired;
		if (this.replicasToAck > 0) {
			long deadline = requested + this.timeoutNanos;
			acquired = execute(this.acquiring, (connection) -> send(connection, request, token, tokenBytes, requested)
				.thenCompose((result) -> (result instanceof AcquireResult.Acquired)
						? awaitReplicas(connection, deadline, key, tokenBytes, result)
						: CompletableFuture.completedFuture(result)));
		}
		else {
			acquired = execute(this.connections, (connection) -> send(connection, request, token, tokenBytes, requested));
		}
		return acquired.exceptionally((ex) -> failedAcquire(storeException(ex), key, tokenBytes));
	}

	/**
	 * Sends the acquire: the plain {@code SET key token NX PX ttl}, unless the request asks
	 * for its fencing token up front, which {@link LockScript#ACQUIRE} issues in the same
	 * round trip. A refused SET runs that script in a second round trip, for the holder's
	 * remaining TTL, and to take over a lock that already holds this very token (a SET that
	 * Lettuce sent again after a reconnect, whose first answer was lost).
	 */
	private CompletableFuture<AcquireResult> send(NativeConnection connection, LockRequest request, String token,
			byte[] tokenBytes, long requested) {
		byte[] key = encode(request.key());
		byte[] ttl = encode(request.ttl().toMillis());
		if (request.withFencingToken()) {
			return this.<Long>send(connection, LockScript.ACQUIRE, acquireKeys(key), new byte[][] { tokenBytes, ttl })
				.thenApply((answer) -> acquireResult(request, token, requested, answer));
		}
		return connection.commands()
			.set(key, tokenBytes, SetArgs.Builder.nx().px(request.ttl().toMillis()))
			.toCompletableFuture()
			.thenCompose((ok) -> (ok != null)
					? CompletableFuture.completedFuture(acquired(request, token, requested, 0))
					: this.<Long>send(connection, LockScript.ACQUIRE, acquireKeys(key), new byte[][] { tokenBytes, ttl })
						.thenApply((answer) -> acquireResult(request, token, requested, answer)));
	}

	/**
	 * WAITs until the replicas have the lock; if too few do in time, deletes it again. The
	 * WAIT leaves a little of the remaining timeout for that delete. WAIT counts the writes
	 * of the connection it runs on, so the acquire runs on the store's own connection.
	 */
	private CompletableFuture<AcquireResult> awaitReplicas(NativeConnection connection, long deadline, byte[] key,
			byte[] token, AcquireResult acquired) {
		long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
		// Redis notices a WAIT's timeout on its event loop's next tick (1/hz, 100ms by default),
		// so the reserve for the delete covers a late tick and a round trip.
		long reserve = Math.min(300, TimeUnit.NANOSECONDS.toMillis(this.timeoutNanos) / 4);
		// WAIT 0 would block for ever.
		long waitMillis = Math.max(1, remaining - reserve);
		return connection.commands()
			.waitForReplication(this.replicasToAck, waitMillis)
			.toCompletableFuture()
			.thenCompose((acknowledged) -> {
				if (acknowledged >= this.replicasToAck) {
					return CompletableFuture.completedFuture(acquired);
				}
				LockStoreException failure = new LockStoreException("Only " + acknowledged + " of the "
						+ this.replicasToAck + " replicas lockable.redis.replicas-to-ack asks for acknowledged the lock "
						+ "within " + waitMillis + "ms; the lock was given back", "REPLICATION", null);
				return this.<Long>send(connection, LockScript.RELEASE, new byte[][] { key }, new byte[][] { token })
					.handle((deleted, ex) -> new AcquireResult.Failed(failure));
			});
	}

	private static byte[][] acquireKeys(byte[] key) {
		return new byte[][] { key, FencingCounters.counterKey(key) };
	}

	/**
	 * Reads the answer of {@link LockScript#ACQUIRE}: a fencing token (at least 1), or
	 * {@code -(PTTL + 2)} of the holder.
	 */
	private AcquireResult acquireResult(LockRequest request, String token, long requested, long answer) {
		if (answer > 0) {
			return acquired(request, token, requested, answer);
		}
		long pttl = -2 - answer;
		return new AcquireResult.Held((pttl >= 0) ? Duration.ofMillis(pttl) : null, null);
	}

	private AcquireResult acquired(LockRequest request, String token, long requested, long fencingToken) {
		LockLease lease = new LockLease(request.key(), token, fencingToken, Instant.now(), request.ttl());
		return new AcquireResult.Acquired(new LockHandle(this, lease, requested));
	}

	/**
	 * The one way out of a failed acquire, whichever timeout fired: Lockable's own, or
	 * Lettuce's command timeout, either may cut short an acquire that was already sent.
	 */
	private AcquireResult failedAcquire(LockStoreException failure, byte[] key, byte[] token) {
		if (failure instanceof RedisTimeoutException timedOut && timedOut.sentOn() != null) {
			cleanUpAfterTimeout(timedOut.sentOn(), key, token);
		}
		return new AcquireResult.Failed(failure);
	}

	/**
	 * The acquire may still reach the server after we gave up on it. Queue a release with
	 * the same token behind it on the same connection, even one about to be dropped for its
	 * silence, so that the server runs the two in order and such a lock does not linger for
	 * its whole TTL. The release is owner-checked, so it never deletes another caller's
	 * lock, and a no-op if the acquire never ran. Lettuce's command timeout may cut the
	 * release's own wait short too; it still runs once the server reads it.
	 */
	private void cleanUpAfterTimeout(NativeConnection connection, byte[] key, byte[] token) {
		byte[][] keys = { key };
		byte[][] args = { token };
		this.<Long>send(connection, LockScript.RELEASE, keys, args).whenComplete((deleted, ex) -> {
			if (ex == null && deleted == 1L && logger.isDebugEnabled()) {
				logger.debug("Deleted a lock whose acquire answered after its timeout");
			}
		});
	}

	@Override
	public Status checkHealth() {
		RedisServerStatus status = checkServer();
		return new Status(status.isUsable(), status.details());
	}

	/**
	 * Probes the server: its eviction policy, its role, whether it runs the store's scripts.
	 * With {@code INFO} and one script call that writes nothing, never {@code CONFIG}. On a
	 * Cluster every master's policy is read.
	 * @return what the probe found
	 * @throws LockStoreException when no connection opens or the probe does not answer in
	 * time
	 */
	RedisServerStatus checkServer() {
		long deadline = System.nanoTime() + 2 * this.timeoutNanos;
		NativeConnection connection = this.connections.current();
		if (connection == null) {
			connection = awaitConnection(deadline);
		}
		try {
			return BoundedWait.get(this.probe.probe(connection), deadline);
		}
		catch (ExecutionException ex) {
			throw storeException(ex);
		}
		catch (TimeoutException ex) {
			throw new RedisTimeoutException(this.timeout, connection);
		}
	}

	@Override
	public @Nullable String earlyLossCause() {
		return this.probe.earlyLossCause();
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		return this.<Long>execute(LockScript.RELEASE, new byte[][] { encode(lease.key()) },
				new byte[][] { encode(lease.token()) })
			.thenApply(this::releaseResult);
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

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		return this.<Long>execute(LockScript.EXTEND, new byte[][] { encode(lease.key()) },
				new byte[][] { encode(lease.token()), encodeExtension(ttl) })
			.thenApply(this::extended);
	}

	/**
	 * The token issued in the acquire, or, for a lease acquired by the plain SET, one issued
	 * now by {@link LockScript#FENCE}, only while the lease's token still holds the lock.
	 */
	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		if (lease.fencingToken() > 0) {
			return CompletableFuture.completedFuture(lease.fencingToken());
		}
		return execute(LockScript.FENCE, acquireKeys(encode(lease.key())), new byte[][] { encode(lease.token()) });
	}

	private static byte[] encodeExtension(Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		return encode(ttl.toMillis());
	}

	/**
	 * Completes on the release script's message on the lock's channel, at the latest after
	 * {@code maxWait}. The wait subscribes first and then looks whether the key still
	 * exists, completing at once if not, so that a release just before the subscription is
	 * not missed. Completes at once, too, when the pub/sub connection drops; while none can
	 * be opened, after {@code maxWait}. Dependent actions run on a Lettuce I/O thread or the
	 * JDK's timer thread and must not block.
	 */
	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		return this.notifications.awaitRelease(key, maxWait);
	}

	private CompletableFuture<Boolean> lockExists(String key) {
		return execute(this.connections, (connection) -> connection.commands().exists(encode(key)).toCompletableFuture())
			.thenApply((count) -> count != 0);
	}

	private <T> CompletableFuture<T> execute(LockScript script, byte[][] keys, byte[][] args) {
		return execute(this.connections, (connection) -> this.<T>send(connection, script, keys, args));
	}

	/**
	 * Waits for the connection until the deadline. An open still in progress then goes on
	 * for the callers after this one.
	 */
	private NativeConnection awaitConnection(long deadline) {
		try {
			return BoundedWait.get(this.connections.opening(), deadline);
		}
		catch (ExecutionException ex) {
			throw storeException(ex);
		}
		catch (TimeoutException ex) {
			throw new RedisTimeoutException(this.timeout, null);
		}
	}

	/**
	 * Runs a command on a connection, within the store's timeout from now, opening the
	 * connection included. Whichever comes first, the open or the timeout, decides whether
	 * the command is sent: an acquire sent after its caller gave up would hold a lock nobody
	 * releases.
	 */
	private <T> CompletableFuture<T> execute(RedisConnections connections,
			Function<NativeConnection, CompletableFuture<T>> command) {
		long start = System.nanoTime();
		NativeConnection current = connections.current();
		if (current != null) {
			return command.apply(current)
				.orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS)
				.handle((value, ex) -> valueOrFailure(current, start, value, ex));
		}
		AtomicBoolean decided = new AtomicBoolean();
		AtomicReference<NativeConnection> sentOn = new AtomicReference<>();
		return connections.opening()
			.thenCompose((connection) -> {
				if (!decided.compareAndSet(false, true)) {
					return CompletableFuture.<T>failedFuture(new RedisTimeoutException(this.timeout, null));
				}
				sentOn.set(connection);
				return command.apply(connection).handle((value, ex) -> valueOrFailure(connection, start, value, ex));
			})
			.orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS)
			.handle((value, ex) -> {
				if (ex == null) {
					return value;
				}
				Throwable cause = unwrap(ex);
				if (cause instanceof TimeoutException) {
					NativeConnection connection = decided.compareAndSet(false, true) ? null : sentOn.get();
					if (connection != null) {
						connection.timedOut(start);
					}
					cause = new RedisTimeoutException(this.timeout, connection);
				}
				throw new CompletionException(storeException(cause));
			});
	}

	private <T> CompletableFuture<T> send(NativeConnection connection, LockScript script, byte[][] keys,
			byte[][] args) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands();
		return commands.<T>evalsha(script.sha1(), ScriptOutputType.INTEGER, keys, args)
			.toCompletableFuture()
			.exceptionallyCompose((ex) -> (unwrap(ex) instanceof RedisNoScriptException)
					? commands.<T>eval(script.source(), ScriptOutputType.INTEGER, keys, args).toCompletableFuture()
					: CompletableFuture.failedFuture(ex));
	}

	private <T> T valueOrFailure(NativeConnection connection, long start, T value, @Nullable Throwable ex) {
		if (ex != null) {
			throw new CompletionException(storeException(connection, start, unwrap(ex)));
		}
		connection.answered();
		return value;
	}

	/**
	 * What a failed command on the connection means: a timeout, the store's own or
	 * Lettuce's, adds to the connection's silence, an error answer ends it, and any other
	 * failure (the connection closed or reset) makes the next call open another if this
	 * one is closed for good.
	 */
	private LockStoreException storeException(NativeConnection failed, long start, Throwable ex) {
		if (ex instanceof LockStoreException storeException) {
			return storeException;
		}
		if (ex instanceof TimeoutException) {
			failed.timedOut(start);
			return new RedisTimeoutException(this.timeout, failed);
		}
		RedisTimeoutException timedOut = this.timeouts.ofCommand(ex, failed);
		if (timedOut != null) {
			failed.timedOut(start);
			return timedOut;
		}
		if (ex instanceof RedisCommandExecutionException) {
			failed.answered();
		}
		else {
			// Not an error answer from the server: the connection may be closed for good.
			this.connections.invalidate(failed);
			this.acquiring.invalidate(failed);
		}
		return new LockStoreException("Redis command failed: " + ex.getMessage(), ex);
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
	 * Opens the connection when the application starts, before the web server takes
	 * requests, so that the first lock does not pay for it against its acquire timeout:
	 * waits for the open at most that timeout, then lets startup go on whatever the open's
	 * outcome (a refused connection fails at once; a Redis that is down or wrong never stops
	 * the application from starting, and the next call opens again). Once open, the server
	 * is probed in the background ({@link #checkServer()}), with a WARN when it may evict
	 * locks and an ERROR when it is a replica or refuses the scripts.
	 */
	@Override
	public void start() {
		CompletableFuture<NativeConnection> opening = this.connections.opening();
		opening.thenAccept(this.probe::probeAtStartup);
		CompletableFuture<NativeConnection> acquiring = this.acquiring.opening();
		long deadline = System.nanoTime() + this.timeoutNanos;
		awaitOpen(opening, deadline);
		awaitOpen(acquiring, deadline);
		this.running = true;
	}

	private static void awaitOpen(CompletableFuture<NativeConnection> opening, long deadline) {
		try {
			BoundedWait.get(opening, deadline);
		}
		catch (ExecutionException | TimeoutException ex) {
			// The first call opens or waits again, within its own timeout.
		}
	}

	/**
	 * Closes the store's connections and client and wakes its waiters, who try again, so
	 * that nothing of the store's outlives a stop, as Spring Framework 7 does with a
	 * paused test context, or a checkpoint and restore. A call after this opens a
	 * connection again.
	 */
	@Override
	public void stop() {
		this.running = false;
		close();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Before the embedded web server ({@code Integer.MAX_VALUE - 1024}) takes requests.
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 2048;
	}

	/**
	 * Closes the store's own connections, its pub/sub connection included, and its client,
	 * and wakes its waiters. The application's factory and its connections are not
	 * touched. A call after this opens again.
	 */
	@Override
	public void close() {
		this.notifications.close();
		this.connections.close();
		this.acquiring.close();
		this.client.close();
	}

	/**
	 * Redis did not answer in time: within the store's timeout, Lettuce's command timeout,
	 * or the connect timeout, as the message says.
	 */
	static final class RedisTimeoutException extends LockStoreException {

		@Nullable
		private final transient NativeConnection sentOn;

		RedisTimeoutException(Duration timeout, @Nullable NativeConnection sentOn) {
			this(((sentOn != null) ? "Redis did not answer within " : "No connection to Redis within ")
					+ timeout.toMillis() + "ms (lockable.acquire-timeout)", sentOn, null);
		}

		RedisTimeoutException(String message, @Nullable NativeConnection sentOn, @Nullable Throwable cause) {
			super(message, "TIMEOUT", cause);
			this.sentOn = sentOn;
		}

		/**
		 * The connection the command went out on before the timeout, so that it may still
		 * run; {@code null} when it never went out.
		 */
		@Nullable
		NativeConnection sentOn() {
			return this.sentOn;
		}

	}

}
