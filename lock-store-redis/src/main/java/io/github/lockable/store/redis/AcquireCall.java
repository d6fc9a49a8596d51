package io.github.lockable.store.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;

/**
 * An acquire: the plain {@code SET key token NX PX ttl}, unless the request asks for its
 * fencing token up front, which {@link LockScript#ACQUIRE} issues in the same round trip,
 * or the store has a lock-delay ({@link LockScript#DELAYED_ACQUIRE}, which issues it too).
 * A refused SET runs that script in a second round trip, for the holder's remaining TTL,
 * and to take over a lock that already holds this very token (a SET that Lettuce sent
 * again after a reconnect, whose first answer was lost). With replicas to wait for, a
 * granted lock is then WAITed for, and given back when too few replicas have it in time.
 * <p>
 * Never fails: a failure is the result {@link AcquireResult.Failed}. An acquire that a
 * timeout cut short after it was sent may still land, so a release with the same token is
 * queued behind it on the same connection ({@link #cleanUpAfterTimeout}).
 */
final class AcquireCall extends RedisCall<AcquireResult> {

	private enum Step {
		SET, SCRIPT, WAIT, GIVE_BACK
	}

	private final RedisLockStore store;

	private final LockRequest request;

	private final String token;

	private final byte[] key;

	private final byte[] tokenBytes;

	private Step step = Step.SET;

	/** How long WAIT waits for replicas, in milliseconds. */
	private long waitMillis;

	/** The grant that WAIT waits for replicas of. */
	private @Nullable AcquireResult grant;

	/** Why a lock too few replicas acknowledged was given back. */
	private @Nullable LockStoreException givenBack;

	/**
	 * @param failures what failures mean
	 * @param store the store, the grant's handle releases through
	 * @param request the request
	 * @param token the new owner token: the whole value written at the key
	 * @param tokenBytes its UTF-8 bytes, as written
	 */
	AcquireCall(CallFailures failures, RedisLockStore store, LockRequest request, String token, byte[] tokenBytes) {
		super(failures);
		this.store = store;
		this.request = request;
		this.token = token;
		this.key = RedisLockStore.encode(request.key());
		this.tokenBytes = tokenBytes;
	}

	@Override
	void send(NativeConnection connection) {
		if (this.store.lockDelayMillis() > 0) {
			this.step = Step.SCRIPT;
			script(LockScript.DELAYED_ACQUIRE,
					new byte[][] { this.key, FencingCounters.counterKey(this.key), FencingCounters.markerKey(this.key) },
					new byte[][] { this.tokenBytes, RedisLockStore.encode(this.request.ttl().toMillis()),
							RedisLockStore.encode(this.store.lockDelayMillis()),
							RedisLockStore.encode(this.request.withFencingToken() ? 1 : 0) });
			evalsha(connection);
		}
		else if (this.request.withFencingToken()) {
			sendScript(connection);
		}
		else {
			long ttlMillis = this.request.ttl().toMillis();
			listenTo(connection.commands().set(this.key, this.tokenBytes, this.store.setArgs(ttlMillis)));
		}
	}

	private void sendScript(NativeConnection connection) {
		this.step = Step.SCRIPT;
		script(LockScript.ACQUIRE, new byte[][] { this.key, FencingCounters.counterKey(this.key) },
				new byte[][] { this.tokenBytes, RedisLockStore.encode(this.request.ttl().toMillis()) });
		evalsha(connection);
	}

	@Override
	void answered(NativeConnection connection, @Nullable Object answer) {
		switch (this.step) {
			case SET -> {
				if (answer != null) {
					granted(connection, acquired(0));
				}
				else {
					sendScript(connection);
				}
			}
			case SCRIPT -> granted(connection, scriptResult((Long) answer));
			case WAIT -> replicated(connection, (Long) answer);
			case GIVE_BACK -> finish(new AcquireResult.Failed(this.givenBack));
		}
	}

	/**
	 * Reads the answer of {@link LockScript#ACQUIRE}: a fencing token (at least 1), or
	 * {@code -(PTTL + 2)} of the holder (or of the lock-delay).
	 */
	private AcquireResult scriptResult(long answer) {
		if (answer > 0) {
			// The delayed acquire answers 1, no token, unless the request asked for one.
			boolean issued = this.store.lockDelayMillis() == 0 || this.request.withFencingToken();
			return acquired(issued ? answer : 0);
		}
		long pttl = -2 - answer;
		return new AcquireResult.Held((pttl >= 0) ? Duration.ofMillis(pttl) : null, null);
	}

	private AcquireResult acquired(long fencingToken) {
		LockLease lease = new LockLease(this.request.key(), this.token, fencingToken, Instant.now(), this.request.ttl());
		return new AcquireResult.Acquired(new LockHandle(this.store, lease, start()));
	}

	private void granted(NativeConnection connection, AcquireResult result) {
		if (this.store.replicasToAck() > 0 && result instanceof AcquireResult.Acquired) {
			awaitReplicas(connection, result);
		}
		else {
			finish(result);
		}
	}

	/**
	 * WAITs until the replicas have the lock, leaving a little of the remaining timeout for
	 * the delete if too few do. WAIT counts the writes of the connection it runs on, so the
	 * acquire runs on a connection of its own.
	 */
	private void awaitReplicas(NativeConnection connection, AcquireResult acquired) {
		long timeoutMillis = TimeUnit.NANOSECONDS.toMillis(failures().timeoutNanos());
		long remaining = timeoutMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start());
		// Redis notices a WAIT's timeout on its event loop's next tick (1/hz, 100ms by default),
		// so the reserve for the delete covers a late tick and a round trip.
		long reserve = Math.min(300, timeoutMillis / 4);
		// WAIT 0 would block for ever.
		long waitMillis = Math.max(1, remaining - reserve);
		this.step = Step.WAIT;
		this.grant = acquired;
		this.waitMillis = waitMillis;
		listenTo(connection.commands().waitForReplication(this.store.replicasToAck(), waitMillis));
	}

	private void replicated(NativeConnection connection, long acknowledged) {
		if (acknowledged >= this.store.replicasToAck() && this.grant != null) {
			finish(this.grant);
			return;
		}
		giveBack(connection, new LockStoreException("Only " + acknowledged + " of the " + this.store.replicasToAck()
				+ " replicas lockable.redis.replicas-to-ack asks for acknowledged the lock within " + this.waitMillis
				+ "ms; the lock was given back", "REPLICATION", null));
	}

	private void giveBack(NativeConnection connection, LockStoreException why) {
		this.givenBack = why;
		this.step = Step.GIVE_BACK;
		script(LockScript.RELEASE, new byte[][] { this.key }, new byte[][] { this.tokenBytes });
		evalsha(connection);
	}

	@Override
	void commandFailed(NativeConnection connection, Throwable failure) {
		if (this.step == Step.GIVE_BACK) {
			// The lock is given back as far as it can be: the acquire failed for its replicas.
			// A give-back the ACL refused still makes the store refuse acquires.
			failures().ofScript(connection, start(), failure);
			finish(new AcquireResult.Failed(this.givenBack));
			return;
		}
		if (this.step == Step.WAIT) {
			// The lock is set but no replica count came back (an ACL without +wait answers
			// NOPERM): give it back rather than leave it for its TTL.
			LockStoreException failed = failures().of(connection, start(), failure);
			giveBack(connection, (failure instanceof RedisCommandExecutionException)
					? new LockStoreException("Redis refused the WAIT that lockable.redis.replicas-to-ack sends after "
							+ "each acquire (" + failure.getMessage() + "); the lock was given back. Grant the ACL "
							+ "user +wait", "REPLICATION", failed)
					: failed);
			return;
		}
		super.commandFailed(connection, failure);
	}

	@Override
	boolean runsScript() {
		return this.step == Step.SCRIPT;
	}

	@Override
	void failed(LockStoreException failure) {
		if (failure instanceof RedisTimeoutException timedOut && timedOut.sentOn() != null) {
			cleanUpAfterTimeout(timedOut.sentOn());
		}
		complete(new AcquireResult.Failed(failure));
	}

	/**
	 * The acquire may still reach the server after we gave up on it. Queue a release with
	 * the same token behind it on the same connection, even one about to be dropped for its
	 * silence, so that the server runs the two in order and such a lock does not linger for
	 * its whole TTL. The release is owner-checked, so it never deletes another caller's
	 * lock, and a no-op if the acquire never ran. Lettuce's command timeout may cut the
	 * release's own wait short too; it still runs once the server reads it.
	 */
	private void cleanUpAfterTimeout(NativeConnection connection) {
		new ScriptCall<>(failures(), LockScript.RELEASE, new byte[][] { this.key },
				new byte[][] { this.tokenBytes }, ScriptCall::lateAcquireDeleted).startUnbounded(connection);
	}

}
