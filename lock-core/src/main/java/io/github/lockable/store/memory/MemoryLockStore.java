package io.github.lockable.store.memory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockTokens;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.ReleaseWaiters;
import io.github.lockable.store.StoredLock;

/**
 * A {@link LockStore} inside one JVM, for tests and single-instance applications. TTLs run
 * on the monotonic clock, so a wall-clock jump neither frees nor pins a lock.
 * <p>
 * Fencing tokens come from one counter for the whole store: strictly increasing across
 * all keys, hence for each key, in a single number however many keys are used. A new
 * store starts them at the JVM's clock in microseconds
 * ({@link LockTokens#nextFencingToken(long, long)}), so that the tokens of an application
 * restarted on this store stay above those it issued before.
 * <p>
 * Every operation runs on the caller's thread and returns a stage that is already complete.
 * <p>
 * {@link #awaitRelease(String, Duration)} is woken by the release itself, in the
 * releasing thread; an expiry is not announced and ends the wait at its maximum.
 */
public final class MemoryLockStore implements LockStore {

	/** Expired entries of keys that are never asked for again are swept every so often. */
	private static final int SWEEP_INTERVAL = 1024;

	private static final CompletionStage<ReleaseResult> RELEASED = CompletableFuture
		.completedFuture(ReleaseResult.RELEASED);

	private static final CompletionStage<ReleaseResult> NOT_OWNER = CompletableFuture
		.completedFuture(ReleaseResult.NOT_OWNER);

	private static final CompletionStage<Boolean> EXTENDED = CompletableFuture.completedFuture(true);

	private static final CompletionStage<Boolean> NOT_EXTENDED = CompletableFuture.completedFuture(false);

	private final ConcurrentHashMap<String, Entry> locks = new ConcurrentHashMap<>();

	private final AtomicInteger acquisitionsSinceSweep = new AtomicInteger();

	private final AtomicLong fencingTokens = new AtomicLong();

	private final ReleaseWaiters waiters = new ReleaseWaiters();

	private final LongSupplier nanoClock;

	/**
	 * Creates a store on {@link System#nanoTime()}.
	 */
	public MemoryLockStore() {
		this(System::nanoTime);
	}

	MemoryLockStore(LongSupplier nanoClock) {
		this.nanoClock = nanoClock;
	}

	@Override
	public String name() {
		return "memory";
	}

	@Override
	public CompletionStage<AcquireResult> acquire(LockRequest request) {
		return CompletableFuture.completedFuture(acquireNow(request));
	}

	private AcquireResult acquireNow(LockRequest request) {
		long requested = System.nanoTime();
		long now = this.nanoClock.getAsLong();
		String token = LockTokens.next();
		Instant acquiredAt = Instant.now();
		// The fencing token is drawn inside compute, under the key's lock: drawn after it, an
		// acquirer stalled past its TTL could draw a larger token than the next owner's.
		Entry winner = this.locks.compute(request.key(),
				(key, current) -> (current == null || current.isExpired(now))
						? new Entry(token, nextFencingToken(), now, now + request.ttl().toNanos(), request.holder(),
								acquiredAt)
						: current);
		sweepNow(now);
		if (winner.token.equals(token)) {
			LockLease lease = new LockLease(request.key(), token, winner.fencingToken, acquiredAt, request.ttl());
			return new AcquireResult.Acquired(new LockHandle(this, lease, requested));
		}
		return new AcquireResult.Held(Duration.ofNanos(winner.expiresAt - now), Duration.ofNanos(now - winner.acquiredAt));
	}

	@Override
	public CompletionStage<ReleaseResult> release(LockLease lease) {
		return (releaseNow(lease) == ReleaseResult.RELEASED) ? RELEASED : NOT_OWNER;
	}

	private ReleaseResult releaseNow(LockLease lease) {
		long now = this.nanoClock.getAsLong();
		ReleaseResult[] result = { ReleaseResult.NOT_OWNER };
		boolean[] deleted = { false };
		this.locks.computeIfPresent(lease.key(), (key, current) -> {
			if (!current.token.equals(lease.token())) {
				return current;
			}
			if (!current.isExpired(now)) {
				result[0] = ReleaseResult.RELEASED;
			}
			deleted[0] = true;
			return null;
		});
		if (deleted[0]) {
			this.waiters.released(lease.key());
		}
		return result[0];
	}

	/**
	 * Registers the waiter first and then looks at the lock, so that a release between the
	 * caller's failed acquire and this call completes the wait at once instead of being
	 * missed.
	 */
	@Override
	public CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		CompletableFuture<Void> waiter = this.waiters.await(key, maxWait);
		Entry current = this.locks.get(key);
		if (current == null || current.isExpired(this.nanoClock.getAsLong())) {
			waiter.complete(null);
		}
		return waiter;
	}

	@Override
	public CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
		return extendNow(lease, ttl) ? EXTENDED : NOT_EXTENDED;
	}

	private boolean extendNow(LockLease lease, Duration ttl) {
		long now = this.nanoClock.getAsLong();
		boolean[] extended = { false };
		this.locks.computeIfPresent(lease.key(), (key, current) -> {
			if (!current.token.equals(lease.token()) || current.isExpired(now)) {
				return current;
			}
			extended[0] = true;
			return new Entry(current.token, current.fencingToken, current.acquiredAt, now + ttl.toNanos(), current.holder,
					current.acquiredInstant);
		});
		return extended[0];
	}

	/**
	 * The token issued in the acquire, while the lease still owns the lock.
	 */
	private long nextFencingToken() {
		long nowMicros = Math.multiplyExact(System.currentTimeMillis(), 1000);
		long last;
		long next;
		do {
			last = this.fencingTokens.get();
			next = LockTokens.nextFencingToken(last, nowMicros);
		}
		while (!this.fencingTokens.compareAndSet(last, next));
		return next;
	}

	@Override
	public CompletionStage<Long> fencingToken(LockLease lease) {
		Entry current = this.locks.get(lease.key());
		boolean owned = current != null && current.token.equals(lease.token())
				&& !current.isExpired(this.nanoClock.getAsLong());
		return CompletableFuture.completedFuture(owned ? current.fencingToken : 0L);
	}

	@Override
	public CompletionStage<LockListing> locks(String prefix, int limit) {
		long now = this.nanoClock.getAsLong();
		TreeMap<String, Entry> live = new TreeMap<>();
		this.locks.forEach((key, entry) -> {
			if (key.startsWith(prefix) && !entry.isExpired(now)) {
				live.put(key, entry);
			}
		});
		List<StoredLock> listed = live.entrySet()
			.stream()
			.limit(limit)
			.map((lock) -> new StoredLock(lock.getKey(), Duration.ofNanos(lock.getValue().expiresAt - now),
					lock.getValue().holder, lock.getValue().acquiredInstant))
			.toList();
		return CompletableFuture.completedFuture(new LockListing(listed, live.size() > limit));
	}

	@Override
	public CompletionStage<Boolean> forceRelease(String key) {
		long now = this.nanoClock.getAsLong();
		Entry removed = this.locks.remove(key);
		if (removed != null) {
			this.waiters.released(key);
		}
		return CompletableFuture.completedFuture(removed != null && !removed.isExpired(now));
	}

	/**
	 * Number of keys currently held, expired ones not yet swept included.
	 * @return the number of entries
	 */
	int size() {
		return this.locks.size();
	}

	private void sweepNow(long now) {
		if (this.acquisitionsSinceSweep.incrementAndGet() % SWEEP_INTERVAL == 0) {
			sweep(now);
		}
	}

	void sweep(long now) {
		this.locks.values().removeIf((entry) -> entry.isExpired(now));
	}

	private record Entry(String token, long fencingToken, long acquiredAt, long expiresAt, @Nullable LockHolder holder,
			Instant acquiredInstant) {

		boolean isExpired(long now) {
			return now - this.expiresAt >= 0;
		}

	}

}
