package io.github.lockable.core;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Holds a lock taken inside a transaction that the caller began until that transaction
 * commits or rolls back. Released when the method returned, the lock would let a second
 * caller in before the first one's writes are committed, and that caller would read the
 * old data. Loaded only when spring-tx is on the class path.
 */
final class CallerTransactionRelease implements TransactionSynchronization {

	// The log category of the package this class came from, which operators' logging configuration names
	private static final Logger logger = LoggerFactory.getLogger("io.github.lockable.aop.CallerTransactionRelease");

	private final LockedCall call;

	private volatile @Nullable Throwable failure;

	private CallerTransactionRelease(LockedCall call) {
		this.call = call;
	}

	/**
	 * Defers the release to the end of the current transaction, if synchronization is active.
	 * @return the deferred release, or {@code null} when the caller should release on return
	 */
	static @Nullable CallerTransactionRelease registerIfActive(LockedCall call, LockableMethod method, String key) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			return null;
		}
		CallerTransactionRelease release = new CallerTransactionRelease(call);
		TransactionSynchronizationManager.registerSynchronization(release);
		if (logger.isDebugEnabled()) {
			logger.debug("{} joined its caller's transaction: lock {} is released when that transaction completes",
					method.description(), key);
		}
		return release;
	}

	/** The method returned or threw: its work is observed to here, its lock held on. */
	void methodEnded(@Nullable Throwable failure) {
		this.failure = failure;
		this.call.workEnded(failure);
	}

	@Override
	public void afterCompletion(int status) {
		this.call.finish(this.failure, false);
	}

	/** Released late rather than early: the lock must outlive the caller's commit. */
	@Override
	public int getOrder() {
		return LOWEST_PRECEDENCE;
	}

}
