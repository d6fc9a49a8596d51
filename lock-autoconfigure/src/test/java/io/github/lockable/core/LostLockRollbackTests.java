package io.github.lockable.core;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockContext;
import io.github.lockable.LockLostException;
import io.github.lockable.store.memory.MemoryLockStore;

import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

class LostLockRollbackTests {

	private final LockManager manager = new LockManager(new MemoryLockStore(), 0.8, LockMetrics.NONE);

	private final TransactionExecution transaction = mock(TransactionExecution.class);

	@BeforeEach
	void beginSynchronization() {
		given(this.transaction.isNewTransaction()).willReturn(true);
		TransactionSynchronizationManager.initSynchronization();
	}

	@AfterEach
	void endSynchronization() {
		TransactionSynchronizationManager.clearSynchronization();
	}

	@Test
	void commitOfATransactionWhoseLockWasLostFails() {
		DefaultHeldLock lock = lock("lost");
		try (LockContext.Scope scope = LockContext.bind(lock)) {
			new LostLockRollback().afterBegin(this.transaction, null);
		}
		lock.markLost();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(this::beforeCommit);
	}

	@Test
	void commitAfterTheHolderClosedItsLockOnPurposeSucceeds() {
		DefaultHeldLock lock = lock("closed");
		try (LockContext.Scope scope = LockContext.bind(lock)) {
			new LostLockRollback().afterBegin(this.transaction, null);
		}
		lock.close();
		assertThatNoException().isThrownBy(this::beforeCommit);
	}

	private void beforeCommit() {
		for (TransactionSynchronization synchronization : TransactionSynchronizationManager.getSynchronizations()) {
			synchronization.beforeCommit(false);
		}
	}

	private DefaultHeldLock lock(String key) {
		return (DefaultHeldLock) new DefaultLockTemplate(this.manager, new LockKeys("lock", 200),
				new LockRenewals(), ConflictPolicy.CONFLICT, false)
			.tryLock(key, Duration.ofSeconds(30))
			.orElseThrow();
	}

}
