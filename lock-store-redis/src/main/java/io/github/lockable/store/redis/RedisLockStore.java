package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.SetArgs;
import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

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
 * thread. The timeout runs on the client's timer ({@code ClientResources.timer()}), which
 * fires on its first tick after it (100ms ticks by default; see {@link RedisCall}). Lettuce's own command and connect timeouts end a call first where they are
 * shorter; whichever timeout fires, the failure has the code {@code TIMEOUT} and names it,
 * and an acquire cut short after it was sent is deleted again, owner-checked, once the
 * server runs it. A connection that answers nothing for twice that timeout, at least 5
 * seconds, is taken for dead (half open) and replaced; a shorter stall keeps it, so that
 * the commands queued on it still run when the server answers again.
 * <p>
 * Every script touches only keys of one slot, so it runs on a Redis Cluster: release and
 * extend only the lock key, acquire the lock key, its fencing counter and (with a
 * lock-delay) the slot's marker {@code lockable:fence:{<tag>}:delay}. Other companion
 * keys of a lock, if any are added, must be named {@code {<lock key>}:<suffix>}: a hash tag
 * equal to the whole lock key puts them in the lock key's slot.
 * <p>
 * <b>Fencing tokens.</b> A fencing token is issued owner-checked, by a script that
 * advances a counter only while the lock still holds the caller's token: when it is first
 * asked for ({@link #fencingToken(LockLease)}), or in the acquire's round trip when the
 * request asks for it up front ({@link LockRequest#withFencingToken()}). There is one
 * counter per Cluster slot, {@code lockable:fence:{<tag>}} (the tag puts it in that slot;
 * standalone servers use the same names), a plain integer key without expiry outside the
 * {@code lockable.key-prefix}, never deleted by the store. A token is the larger of the
 * counter plus one and the server's clock in microseconds, so a counter the server lost
 * starts again above every earlier token, not at 1
 * ({@link LockTokens#nextFencingToken(long, long)}).
 * <p>
 * A release publishes on the lock's wake-up channel {@code {<lock key>}:released}, sharded
 * pub/sub on Redis 7 and later, so that {@link #awaitRelease(String, Duration)} wakes
 * waiters at once; the store listens on one pub/sub connection of its own, opened when the
 * first caller waits.
 */
public final class RedisLockStore implements LockStore, LockStoreHealth, SmartLifecycle, AutoCloseable {

	private final CallFailures failures;

	/** The {@code NX PX ttl} of the last acquire. */
	private volatile @Nullable SetArgsOfTtl lastSetArgs;

	private final RedisConnections connections;

	/** Where acquires run: the store's connection, or one of their own when they WAIT. */
	private final RedisConnections acquiring;

	private final int replicasToAck;

	private final long lockDelayMillis;

	private final RedisLockNotifications notifications;

	private final RedisServerProbe probe;

	/** Whether the server refuses the scripts, so that no acquire is sent. */
	private final ScriptRefusal refusal = new ScriptRefusal();

	private final LeaseCalls leaseCalls;

	private final RedisHealthCheck health;

	private final RedisStoreLifecycle lifecycle;

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
		this(connectionFactory, timeout, replicasToAck, Duration.ZERO);
	}

	/**
	 * Creates a store as {@link #RedisLockStore(LettuceConnectionFactory, Duration, int)}
	 * does, with a lock-delay: once the server may have forgotten its locks (it restarted,
	 * or a replica took over: another {@code run_id}), no lock of a Cluster slot is granted
	 * until {@code lockDelay} has passed since the server started or since the first acquire
	 * in that slot saw the new {@code run_id}, so that a holder that still runs on a lock
	 * the server forgot is not joined by a second one; acquires meanwhile answer held, for
	 * the rest of the delay. Every acquire then runs a script (with {@code INFO server})
	 * instead of the plain SET.
	 * @param connectionFactory the application's Lettuce connection factory
	 * @param timeout as above
	 * @param replicasToAck as above
	 * @param lockDelay the longest TTL in use, or zero for no lock-delay
	 */
	public RedisLockStore(LettuceConnectionFactory connectionFactory, Duration timeout, int replicasToAck,
			Duration lockDelay) {
		Assert.isTrue(timeout.toNanos() > 0, () -> "timeout must be positive, was " + timeout);
		Assert.isTrue(replicasToAck >= 0, () -> "replicasToAck must be at least 0, was " + replicasToAck);
		Assert.isTrue(replicasToAck == 0 || !connectionFactory.isClusterAware(),
				"Waiting for replicas is not supported on Redis Cluster");
		Assert.isTrue(!lockDelay.isNegative(), () -> "lockDelay must not be negative, was " + lockDelay);
		this.lockDelayMillis = lockDelay.toMillis();
		this.replicasToAck = replicasToAck;
		RedisTimeouts timeouts = RedisTimeouts.of(connectionFactory);
		// The store's own client, from the application's factory's configuration.
		StoreConnectionFactory client = StoreConnectionFactory.of(connectionFactory);
		Duration silenceLimit = RedisConnections.silenceLimit(timeout);
		this.connections = new RedisConnections(client, silenceLimit, timeouts);
		this.acquiring = (replicasToAck > 0) ? new RedisConnections(client, silenceLimit, timeouts)
				: this.connections;
		this.failures = new CallFailures(timeout, timeouts, this.refusal, this.connections, this.acquiring);
		this.notifications = new RedisLockNotifications(client, this::lockExists);
		this.probe = new RedisServerProbe(timeout, this.refusal);
		this.leaseCalls = new LeaseCalls(this.failures, this.connections, this.probe);
		this.health = new RedisHealthCheck(this.failures, this.connections, this.probe);
		this.lifecycle = new RedisStoreLifecycle(client, this.connections, this.acquiring, this.notifications,
				this.probe, timeout);
	}

	@Override
	public String name() {
		return "redis";
	}

	/**
	 * Acquires by the plain {@code SET key token NX PX ttl}, or a script when the request
	 * asks for its fencing token up front or the store has a lock-delay (see
	 * {@link AcquireCall}). While the server refuses the scripts, which releases are, fails
	 * at once without a command ({@link ScriptRefusal}).
	 */
	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		LockStoreException refused = this.refusal.failure();
		if (refused != null) {
			this.probe.recheckScripts(this.connections);
			return CompletableFuture.completedFuture(new AcquireResult.Failed(refused));
		}
		String token = LockTokens.next();
		if (request.holder() == null) {
			return new AcquireCall(this.failures, this, request, token, encode(token)).start(this.acquiring);
		}
		// The lease's token is the whole value: made once as bytes, and once as their String.
		byte[] value = LockValues.value(token, request.holder(), System.currentTimeMillis());
		return new AcquireCall(this.failures, this, request, new String(value, StandardCharsets.UTF_8), value)
			.start(this.acquiring);
	}

	/**
	 * How many replicas must have a lock before its acquire succeeds, 0 not to wait.
	 */
	int replicasToAck() {
		return this.replicasToAck;
	}

	/**
	 * The lock-delay in milliseconds, 0 for none.
	 */
	long lockDelayMillis() {
		return this.lockDelayMillis;
	}

	/**
	 * {@code NX PX ttl}, the same object for the same TTL: Lettuce reads it only while it
	 * builds the command, and most callers lock with one TTL.
	 */
	SetArgs setArgs(long ttlMillis) {
		SetArgsOfTtl last = this.lastSetArgs;
		if (last != null && last.ttlMillis() == ttlMillis) {
			return last.args();
		}
		SetArgs args = SetArgs.Builder.nx().px(ttlMillis);
		this.lastSetArgs = new SetArgsOfTtl(ttlMillis, args);
		return args;
	}

	private record SetArgsOfTtl(long ttlMillis, SetArgs args) {
	}

	/**
	 * Probes the server: its eviction policy, its role, whether it runs the store's scripts,
	 * with {@code INFO} and one script call that writes nothing, never {@code CONFIG}; on a
	 * Cluster every master's policy is read. Within twice the timeout, opening the
	 * connection included.
	 */
	@Override
	public Status checkHealth() {
		return this.health.checkHealth();
	}

	@Override
	public @Nullable String earlyLossCause() {
		return this.probe.earlyLossCause();
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		return this.leaseCalls.release(lease);
	}

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		return this.leaseCalls.extend(lease, ttl);
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
		return this.leaseCalls.fencingToken(lease);
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

	/**
	 * Deletes the lock whoever holds it and wakes its waiters ({@link LockScript#FORCE_RELEASE}).
	 */
	@Override
	public CompletionStage<Boolean> forceRelease(String key) {
		return new ScriptCall<>(this.failures, LockScript.FORCE_RELEASE, new byte[][] { encode(key) }, new byte[0][],
				(deleted) -> deleted == 1L).start(this.connections);
	}

	/**
	 * A bounded {@code SCAN} (every master on a Cluster), then each key's value and PTTL,
	 * pipelined; see {@link LockListingCall}.
	 */
	@Override
	public CompletionStage<LockListing> locks(String prefix, int limit) {
		return new LockListingCall(this.failures, this.connections, prefix, limit).start();
	}

	private CompletableFuture<Boolean> lockExists(String key) {
		return new ExistsCall(this.failures, encode(key)).start(this.connections);
	}

	static byte[] encode(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	static byte[] encode(long value) {
		return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Opens the connection when the application starts, before the web server takes
	 * requests, so that the first lock does not pay for it against its acquire timeout:
	 * waits for the open at most that timeout, then lets startup go on whatever the open's
	 * outcome (a refused connection fails at once; a Redis that is down or wrong never stops
	 * the application from starting, and the next call opens again). Once open, the server
	 * is probed in the background (as by {@link #checkHealth()}), with a WARN when it may
	 * evict locks and an ERROR when it is a replica or refuses the scripts.
	 */
	@Override
	public void start() {
		this.lifecycle.start();
	}

	/**
	 * Closes the store's connections and client and wakes its waiters, who try again, so
	 * that nothing of the store's outlives a stop, as Spring Framework 7 does with a
	 * paused test context, or a checkpoint and restore. A call after this opens a
	 * connection again.
	 */
	@Override
	public void stop() {
		this.lifecycle.stop();
	}

	@Override
	public boolean isRunning() {
		return this.lifecycle.isRunning();
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
		this.lifecycle.close();
	}

}
