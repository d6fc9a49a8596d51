package io.github.lockable.core;

import io.github.lockable.core.LockableCore.EventListener;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;

import org.jspecify.annotations.Nullable;

/**
 * Takes and gives back locks on a {@link LockStore}, and says what went wrong: a lock that
 * ran out before its release, a holder close to its TTL, a store that did not answer.
 * Releases never throw, so a release problem never masks the locked work's own result.
 */
class LockManager {

	private static final Logger logger = LoggerFactory.getLogger(LockManager.class);

	/** A holder whose lock ran out is detected by the next attempt; never spin faster. */
	private static final long MIN_PAUSE_NANOS = Duration.ofMillis(1).toNanos();

	private final LockStore store;

	private final double ttlWarningRatio;

	/** The events of locks no lock name tells apart; those of each name derive from them. */
	private final LockEvents events;

	private final HeldLocks held = new HeldLocks();

	private final String instance;

	/**
	 * Creates a manager.
	 * @param store where locks live
	 * @param ttlWarningRatio share of the TTL after which a holder is reported, in (0, 1]
	 * @param metrics hooks called on every release and renewal, and on every acquire by the
	 * {@link LockFlow} that decides what it means, through the {@link LockTerms} of the lock
	 * name; one that throws is reported and otherwise ignored, so that it never costs a
	 * granted lock its release
	 */
	public LockManager(LockStore store, double ttlWarningRatio, LockMetrics metrics) {
		this(store, ttlWarningRatio, metrics, LockHolders.host());
	}

	/**
	 * Creates a manager whose locks tell the store which instance holds them.
	 * @param store where locks live
	 * @param ttlWarningRatio share of the TTL after which a holder is reported, in (0, 1]
	 * @param metrics as {@link #LockManager(LockStore, double, LockMetrics)} says
	 * @param instance how {@link LockHolder#instance()} names this instance, such as
	 * {@code orders@host-1}
	 */
	public LockManager(LockStore store, double ttlWarningRatio, LockMetrics metrics, String instance) {
		this(store, ttlWarningRatio, metrics, instance, null);
	}

	/**
	 * Creates a manager whose calls' outcomes are heard by a listener, such as the test kit.
	 * @param store where locks live
	 * @param ttlWarningRatio share of the TTL after which a holder is reported, in (0, 1]
	 * @param metrics as {@link #LockManager(LockStore, double, LockMetrics)} says
	 * @param instance as {@link #LockManager(LockStore, double, LockMetrics, String)} says
	 * @param listener hears the outcomes of every call, or {@code null}
	 */
	public LockManager(LockStore store, double ttlWarningRatio, LockMetrics metrics, String instance,
			@Nullable EventListener listener) {
		this.instance = Objects.requireNonNull(instance, "instance must not be null");
		this.store = Objects.requireNonNull(store, "store must not be null");
		if (!(ttlWarningRatio > 0 && ttlWarningRatio <= 1)) {
			throw new IllegalArgumentException("ttlWarningRatio must be in (0, 1], was " + ttlWarningRatio);
		}
		this.ttlWarningRatio = ttlWarningRatio;
		this.events = LockEvents.of(Objects.requireNonNull(metrics, "metrics must not be null"), listener);
	}

	/**
	 * The store locks live in.
	 * @return the store
	 */
	public LockStore store() {
		return this.store;
	}

	/**
	 * The locks this manager granted and has not released yet, recorded from the first call
	 * of this method on; the actuator endpoint asks when it is created. Until then no lock
	 * is recorded, so that an application without the endpoint does not pay for it.
	 * @return the held locks of this instance
	 */
	public HeldLocks heldLocks() {
		this.held.startRecording();
		return this.held;
	}

	/**
	 * The terms of the locks of one lock name: ask once per lock name and keep them, as the
	 * metrics' meters are looked up here.
	 * @param lock a static key or a resolver's name, never a resolved key
	 * @param method the caller, as the log names it ({@link LockOperation#description()}),
	 * which the store keeps beside the lock's token
	 * @param ttl the lock's TTL
	 * @param waitTime how long to wait for a held lock; zero tries once
	 * @return the terms, whose events feed the lock name's meters, log lines and observations
	 */
	public LockTerms terms(String lock, String method, Duration ttl, Duration waitTime) {
		return new LockTerms(ttl, waitTime, events(lock), holder(method));
	}

	/**
	 * Who asks for a lock, as this manager's store is told with every acquire.
	 * @param method the caller, as the log names it
	 * @return this instance's holder of that caller
	 */
	LockHolder holder(String method) {
		return new LockHolder(this.instance, LockHolders.PID, method);
	}

	/**
	 * The events of one lock name: ask once per lock name and keep them.
	 * @param lock a static key or a resolver's name, or {@value LockMetrics#TEMPLATE_LOCK}
	 * @return the events
	 */
	LockEvents events(String lock) {
		return this.events.forLock(lock);
	}

	/**
	 * Takes the lock, waiting up to the terms' wait time for its holder to release it:
	 * after every refused attempt the store wakes the caller when the holder releases, or
	 * at the latest when the holder's lock runs out or the wait ends. Blocks the calling
	 * thread; an interrupt ends the wait (the interrupt is kept).
	 * @param key the full key
	 * @param terms the lock's TTL, wait time and metrics; release the lock with the same terms.
	 * The acquire is recorded on the metrics where its outcome is decided, by {@link LockFlow}
	 * @return acquired, held (still, after the wait time), or failed
	 */
	public AcquireResult acquire(String key, LockTerms terms) {
		LockRequest request = new LockRequest(key, terms.ttl(), false, terms.holder());
		if (terms.triesOnce()) {
			return acquired(key, StoreStages.await(this.store.acquire(request)));
		}
		long deadline = System.nanoTime() + terms.waitTime().toNanos();
		while (true) {
			AcquireResult result = StoreStages.await(this.store.acquire(request));
			Duration pause = pauseAfter(result, deadline);
			if (pause == null || !awaitRelease(key, pause)) {
				return acquired(key, result);
			}
		}
	}

	/**
	 * Waits without blocking; otherwise as {@link #acquire(String, LockTerms)}. The lock
	 * comes with its fencing token, so that its holder never blocks for it (a {@code Mono}
	 * on an event loop).
	 * @param key the full key
	 * @param terms the lock's TTL, wait time and metrics; release the lock with the same terms
	 * @return a stage with acquired, held, or failed; it never completes exceptionally for
	 * a store failure
	 */
	public CompletionStage<AcquireResult> acquireAsync(String key, LockTerms terms) {
		LockRequest request = new LockRequest(key, terms.ttl(), true, terms.holder());
		if (terms.triesOnce()) {
			return this.store.acquire(request).thenApply((result) -> acquired(key, result));
		}
		return attemptUntil(request, System.nanoTime() + terms.waitTime().toNanos())
			.thenApply((result) -> acquired(key, result));
	}

	private CompletionStage<AcquireResult> attemptUntil(LockRequest request, long deadline) {
		return this.store.acquire(request).thenCompose((result) -> {
			Duration pause = pauseAfter(result, deadline);
			if (pause == null) {
				return CompletableFuture.completedFuture(result);
			}
			return this.store.awaitRelease(request.key(), pause).thenCompose((woken) -> attemptUntil(request, deadline));
		});
	}

	/**
	 * How long to wait for a release before the next attempt: until the holder's lock runs
	 * out, or the wait ends, whichever is first; a release wakes the waiter sooner.
	 * @return the pause, or {@code null} when the attempt's result is final
	 */
	private static @Nullable Duration pauseAfter(AcquireResult result, long deadline) {
		long remaining = deadline - System.nanoTime();
		if (!(result instanceof AcquireResult.Held held) || remaining <= 0) {
			return null;
		}
		long pause = (held.remainingTtl() != null) ? Math.min(remaining, held.remainingTtl().toNanos()) : remaining;
		return Duration.ofNanos(Math.max(pause, MIN_PAUSE_NANOS));
	}

	/**
	 * Waits for the store's wake-up.
	 * @return whether to try again; {@code false} when the thread was interrupted, which
	 * ends the wait (the interrupt is kept)
	 */
	private boolean awaitRelease(String key, Duration pause) {
		try {
			this.store.awaitRelease(key, pause).toCompletableFuture().get();
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (ExecutionException ex) {
			return true;
		}
	}

	private AcquireResult acquired(String key, AcquireResult result) {
		if (result instanceof AcquireResult.Acquired granted) {
			this.held.add(granted.handle());
		}
		if (result instanceof AcquireResult.Failed failed && logger.isDebugEnabled()) {
			// The caller decides what a failure means and reports it.
			LockStoreException cause = failed.cause();
			logger.debug("Lock store '" + this.store.name() + "' failed to acquire " + key + " (" + cause.getCode()
					+ ")", cause);
		}
		return result;
	}

	/**
	 * Releases the lock, and reports a lock that ran out before its release, a holder past
	 * the warning share of its TTL, or a store that did not answer. Never throws.
	 * @param handle what an acquire granted
	 * @param terms the terms it was acquired on
	 * @return what the release found, or {@code null} when the store did not answer
	 */
	public @Nullable ReleaseResult release(LockHandle handle, LockTerms terms) {
		this.held.remove(handle);
		ReleaseResult result;
		try {
			result = StoreStages.await(handle.release());
		}
		catch (RuntimeException ex) {
			releaseFailed(handle, ex, terms.events());
			return null;
		}
		released(handle, result, terms.events());
		return result;
	}

	/**
	 * Releases the lock asynchronously, with the same reports as {@link #release}.
	 * @param handle what an acquire granted
	 * @param terms the terms it was acquired on
	 * @return a stage that completes, never exceptionally, once the release is done, with
	 * what it found, or {@code null} when the store did not answer
	 */
	public CompletionStage<@Nullable ReleaseResult> releaseAsync(LockHandle handle, LockTerms terms) {
		LockEvents lockEvents = terms.events();
		this.held.remove(handle);
		CompletionStage<ReleaseResult> release;
		try {
			release = handle.release();
		}
		catch (RuntimeException ex) {
			release = CompletableFuture.failedFuture(ex);
		}
		return release.handle((result, ex) -> {
			if (ex != null) {
				releaseFailed(handle, ex, lockEvents);
				return null;
			}
			released(handle, result, lockEvents);
			return result;
		});
	}

	/** Decides what the release's result means; the events report it. */
	private void released(LockHandle handle, ReleaseResult result, LockEvents events) {
		Duration held = handle.elapsed();
		boolean lost = result == ReleaseResult.NOT_OWNER;
		events.released(handle, result, held, lost ? earlyLossCause() : null);
		if (!lost && held.toNanos() > handle.lease().ttl().toNanos() * this.ttlWarningRatio) {
			events.ttlNearlyExhausted(handle, held, this.ttlWarningRatio);
		}
	}

	/**
	 * Why a renewal found a lock of this manager's store gone: its TTL ran out before the
	 * renewal came, or it disappeared before (and what the store knows can cause that).
	 * @param handle the lock found gone
	 * @return a clause for a warning, after the key, with the time held and the TTL; never
	 * the token
	 */
	public String renewalLossCause(LockHandle handle) {
		return LockLoss.atRenewal(handle, earlyLossCause());
	}

	private @Nullable String earlyLossCause() {
		try {
			return this.store.earlyLossCause();
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private void releaseFailed(LockHandle handle, Throwable ex, LockEvents events) {
		events.releaseFailed(handle, handle.elapsed(),
				(ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex);
	}

}
