package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.ReleaseResult;

/**
 * Keeps a misbehaving {@link LockMetrics} from standing between a granted lock and its
 * release: a hook that throws is reported once, at WARN, and otherwise ignored.
 */
final class GuardedLockMetrics implements LockMetrics {

	private static final Logger logger = LoggerFactory.getLogger(GuardedLockMetrics.class);

	private final LockMetrics delegate;

	/** Shared by the metrics of every lock name, so that the WARN comes once in all. */
	private final AtomicBoolean reported;

	private GuardedLockMetrics(LockMetrics delegate, AtomicBoolean reported) {
		this.delegate = delegate;
		this.reported = reported;
	}

	static LockMetrics guard(LockMetrics metrics) {
		return (metrics == LockMetrics.NONE || metrics instanceof GuardedLockMetrics) ? metrics
				: new GuardedLockMetrics(metrics, new AtomicBoolean());
	}

	@Override
	public LockMetrics forLock(String lock) {
		LockMetrics bound;
		try {
			bound = this.delegate.forLock(lock);
		}
		catch (RuntimeException ex) {
			failed("forLock", ex);
			return this;
		}
		if (bound == this.delegate || bound instanceof GuardedLockMetrics) {
			return (bound == this.delegate) ? this : bound;
		}
		return (bound == LockMetrics.NONE) ? bound : new GuardedLockMetrics(bound, this.reported);
	}

	@Override
	public void acquireAttempted(AcquireResult result) {
		call("acquireAttempted", (metrics, attempt, unused) -> metrics.acquireAttempted(attempt), result, null);
	}

	@Override
	public void waited(AcquireResult result, Duration waited) {
		call("waited", LockMetrics::waited, result, waited);
	}

	@Override
	public void released(ReleaseResult result, Duration held) {
		call("released", LockMetrics::released, result, held);
	}

	@Override
	public void releaseFailed(Duration held) {
		call("releaseFailed", (metrics, time, unused) -> metrics.releaseFailed(time), held, null);
	}

	@Override
	public void ttlNearlyExhausted() {
		call("ttlNearlyExhausted", (metrics, unused, none) -> metrics.ttlNearlyExhausted(), null, null);
	}

	@Override
	public void renewed(LockRenewals.RenewalResult result) {
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
