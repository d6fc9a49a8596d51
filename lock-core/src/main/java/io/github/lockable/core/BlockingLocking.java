package io.github.lockable.core;

import java.util.Optional;

import io.micrometer.observation.Observation;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.LockContext;
import io.github.lockable.store.LockHandle;

import org.springframework.util.ClassUtils;

/**
 * Locking for methods that return a value or nothing: the lock is held while the method
 * runs on the caller's thread, and released when it returns or throws, or, when the call
 * joined a transaction its caller began, when that transaction completes.
 */
final class BlockingLocking {

	private static final boolean TRANSACTIONS_PRESENT = ClassUtils.isPresent(
			"org.springframework.transaction.support.TransactionSynchronizationManager",
			BlockingLocking.class.getClassLoader());

	private final LockFlow flow;

	BlockingLocking(LockFlow flow) {
		this.flow = flow;
	}

	@Nullable Object invoke(MethodInvocation invocation, LockableMethod method, String key) throws Throwable {
		Decision decision = this.flow.acquire(method, key);
		if (decision instanceof Decision.RunLocked locked) {
			return runLocked(invocation, method, key, locked.handle(), locked.acquisition());
		}
		if (decision instanceof Decision.Refuse refuse) {
			throw refuse.exception();
		}
		if (decision == Decision.SKIP) {
			return (method.returnKind() == ReturnKind.OPTIONAL) ? Optional.empty() : null;
		}
		return invocation.proceed();
	}

	/** Takes the decision's parts rather than the decision: passed on, it could not be scalar-replaced. */
	private @Nullable Object runLocked(MethodInvocation invocation, LockableMethod method, String key,
			LockHandle handle, Observation acquisition) throws Throwable {
		LockedCall call = null;
		CallerTransactionRelease afterTransaction = null;
		Throwable failure = null;
		try {
			call = this.flow.holdCall(method, key, handle, acquisition);
			if (TRANSACTIONS_PRESENT) {
				afterTransaction = CallerTransactionRelease.registerIfActive(call, method, key);
			}
			try (LockContext.Scope scope = call.open()) {
				return invocation.proceed();
			}
		}
		catch (Throwable ex) {
			failure = ex;
			throw ex;
		}
		finally {
			try {
				if (afterTransaction != null) {
					afterTransaction.methodEnded(failure);
				}
				else if (call != null) {
					call.finish(failure, false);
				}
				else {
					this.flow.release(method, key, handle, failure, false);
				}
			}
			catch (VirtualMachineError ex) {
				// No room left here (a recursion through the method overflowed): release elsewhere.
				try {
					ReleaseHandoff.handOff(this.flow, method, key, handle, call, failure, ex);
				}
				catch (VirtualMachineError again) {
					if (call != null) {
						// Field stores only: they need no stack. The hand-off thread finds the call.
						call.orphanError = failure;
						call.orphanReleaseError = ex;
						call.nextOrphan = ReleaseHandoff.orphans;
						ReleaseHandoff.orphans = call;
					}
				}
			}
		}
	}

}
