package io.github.lockable.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

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
		try {
			this.delegate.acquireAttempted(result);
		}
		catch (RuntimeException ex) {
			failed("acquireAttempted", ex);
		}
	}

	void waited(AcquireResult result, Duration waited) {
		try {
			this.delegate.waited(result, waited);
		}
		catch (RuntimeException ex) {
			failed("waited", ex);
		}
	}

	void released(ReleaseResult result, Duration held) {
		try {
			this.delegate.released(result, held);
		}
		catch (RuntimeException ex) {
			failed("released", ex);
		}
	}

	void releaseFailed(Duration held) {
		try {
			this.delegate.releaseFailed(held);
		}
		catch (RuntimeException ex) {
			failed("releaseFailed", ex);
		}
	}

	void ttlNearlyExhausted() {
		try {
			this.delegate.ttlNearlyExhausted();
		}
		catch (RuntimeException ex) {
			failed("ttlNearlyExhausted", ex);
		}
	}

	void renewed(LockRenewals.RenewalResult result) {
		try {
			this.delegate.renewed(result);
		}
		catch (RuntimeException ex) {
			failed("renewed", ex);
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

}
