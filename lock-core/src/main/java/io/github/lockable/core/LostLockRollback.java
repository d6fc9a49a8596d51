package io.github.lockable.core;

import org.jspecify.annotations.Nullable;

import io.github.lockable.LockContext;
import io.github.lockable.LockLostException;

import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Rolls back a transaction that began inside a locked call whose lock was lost before the
 * commit: its writes might overwrite those of a caller that took the lock meanwhile.
 * <p>
 * A transaction's rollback-only flag is read before the commit's synchronizations run, and
 * a flag set then would roll back silently, so the caller would believe its write was
 * committed. Failing {@code beforeCommit} instead rolls back and tells the caller, with a
 * {@link LockLostException}.
 */
final class LostLockRollback implements TransactionExecutionListener {

	/**
	 * Creates the listener; Spring Boot applies it to the transaction managers it
	 * configures.
	 */
	public LostLockRollback() {
	}

	@Override
	public void afterBegin(TransactionExecution transaction, @Nullable Throwable beginFailure) {
		if (beginFailure != null || !transaction.isNewTransaction()
				|| !TransactionSynchronizationManager.isSynchronizationActive()) {
			return;
		}
		LockContext.current()
			.filter((lock) -> lock instanceof DefaultHeldLock && lock.isHeld())
			.ifPresent((lock) -> TransactionSynchronizationManager
				.registerSynchronization(new CommitGuard((DefaultHeldLock) lock)));
	}

	/** Fails the commit of a lock found lost; a lock its holder closed on purpose is no loss. */
	private record CommitGuard(DefaultHeldLock lock) implements TransactionSynchronization {

		@Override
		public void beforeCommit(boolean readOnly) {
			if (this.lock.isLost()) {
				throw new LockLostException("The lock on " + this.lock.keys() + " was lost before the transaction "
						+ "committed; the transaction was rolled back");
			}
		}

	}

}
