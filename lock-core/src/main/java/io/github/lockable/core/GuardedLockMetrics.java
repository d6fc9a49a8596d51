package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.ReleaseResult;

/**
 * The meters adapter of {@link LockEvents}: the user's {@link LockMetrics} of one lock name,
 * kept from standing between a granted lock and its release. A hook that throws is reported
 * once, at WARN, and otherwise ignored.
 */
final class GuardedLockMetrics {

	private static final Logger logger = LoggerFactory.getLogger(GuardedLockMetrics.class);

	/** Calls nothing. */
	static final GuardedLockMetrics NONE = new GuardedLockMetrics(LockMetrics.NONE, new AtomicBoolean());

	private final LockMetrics delegate;

	/** Shared by the metrics of every lock name, so that the WARN comes once in all. */
	private final AtomicBoolean reported;

	private GuardedLockMetrics(LockMetrics delegate, AtomicBoolean reported) {
		this.delegate = delegate;
		this.reported = reported;
	}

	static GuardedLockMetrics guard(LockMetrics metrics) {
		return (metrics == LockMetrics.NONE) ? NONE : new GuardedLockMetrics(metrics, new AtomicBoolean());
	}

	/**
	 * The metrics of one lock name, guarded; this instance when the user's metrics do not
	 * tell lock names apart or their {@code forLock} throws.
	 */
	GuardedLockMetrics forLock(String lock) {
		LockMetrics bound;
		try {
			bound = this.delegate.forLock(lock);
		}
		catch (RuntimeException ex) {
			failed("forLock", ex);
			return this;
		}
		if (bound == this.delegate) {
			return this;
		}
		return (bound == LockMetrics.NONE) ? NONE : new GuardedLockMetrics(bound, this.reported);
	}

	void acquireAttempted(AcquireResult result) {
		call("acquireAttempted", (metrics, attempt, unused) -> metrics.acquireAttempted(attempt), result, null);
	}

	void waited(AcquireResult result, Duration waited) {
		call("waited", LockMetrics::waited, result, waited);
	}

	void released(ReleaseResult result, Duration held) {
		call("released", LockMetrics::released, result, held);
	}

	void releaseFailed(Duration held) {
		call("releaseFailed", (metrics, time, unused) -> metrics.releaseFailed(time), held, null);
	}

	void ttlNearlyExhausted() {
		call("ttlNearlyExhausted", (metrics, unused, none) -> metrics.ttlNearlyExhausted(), null, null);
	}

	void renewed(LockRenewals.RenewalResult result) {
		call("renewed", (metrics, renewal, unused) -> metrics.renewed(renewal), result, null);
	}

	/**
	 * Calls one hook, reporting what it throws. The hooks are method references and
	 * lambdas that capture nothing: no allocation per call.
	 */
	private <A, B> void call(String name, Hook<A, B> hook, @Nullable A first, @Nullable B second) {
		try {
			hook.call(this.delegate, first, second);
		}
		catch (RuntimeException ex) {
			failed(name, ex);
		}
	}

	private void failed(String hook, RuntimeException ex) {
		if (this.reported.compareAndSet(false, true)) {
			logger.warn("LockMetrics {}.{} threw; locks are unaffected, and later failures of its hooks are "
					+ "logged at DEBUG only", this.delegate.getClass().getName(), hook, ex);
		}
		else {
			logger.debug("LockMetrics {}.{} threw", this.delegate.getClass().getName(), hook, ex);
		}
	}

	/** One hook of the delegate, with up to two arguments. */
	@FunctionalInterface
	private interface Hook<A, B> {

		void call(LockMetrics metrics, @Nullable A first, @Nullable B second);

	}

}
