package io.github.lockable.aop;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.core.LockManager;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;

import org.springframework.util.function.SingletonSupplier;

/**
 * The advice around every {@code @Lockable} method: resolve the key, acquire, run, release.
 * <p>
 * A method returning a {@link CompletionStage} or a {@code Mono} keeps its lock until the
 * asynchronous work ends; the release is awaited before the returned stage completes.
 */
final class LockableMethodInterceptor implements MethodInterceptor {

	private final LockableMethods methods;

	private final SingletonSupplier<LockManager> lockManager;

	private final StoreFailurePolicy storeFailure;

	LockableMethodInterceptor(LockableMethods methods, Supplier<LockManager> lockManager,
			StoreFailurePolicy storeFailure) {
		this.methods = methods;
		this.lockManager = SingletonSupplier.of(lockManager);
		this.storeFailure = storeFailure;
	}

	@Override
	public Object invoke(MethodInvocation invocation) throws Throwable {
		LockableMethod method = this.methods.get(invocation.getMethod(), invocation.getThis());
		return switch (method.returnKind()) {
			case COMPLETION_STAGE -> invokeAsynchronous(invocation, method);
			case MONO -> ReactiveLocking.invoke(invocation, method, this);
			default -> invokeBlocking(invocation, method);
		};
	}

	private Object invokeBlocking(MethodInvocation invocation, LockableMethod method) throws Throwable {
		String key = key(invocation, method);
		LockManager manager = lockManager();
		AcquireResult result = manager.acquire(key, method.ttl());
		if (result instanceof AcquireResult.Acquired acquired) {
			Throwable failure = null;
			try {
				return invocation.proceed();
			}
			catch (Throwable ex) {
				failure = ex;
				throw ex;
			}
			finally {
				manager.release(acquired.handle());
				if (LockAttempts.isFinishLogged(method)) {
					LockAttempts.finished(method, key, manager.store().name(), acquired.handle().elapsed(), failure,
							false);
				}
			}
		}
		if (result instanceof AcquireResult.Held held) {
			if (notRunBecauseHeld(method, key, held)) {
				return (method.returnKind() == ReturnKind.OPTIONAL) ? Optional.empty() : null;
			}
			throw conflict(method, held);
		}
		proceedWithoutLock(method, key, (AcquireResult.Failed) result);
		return invocation.proceed();
	}

	private Object invokeAsynchronous(MethodInvocation invocation, LockableMethod method) throws Throwable {
		String key;
		try {
			key = key(invocation, method);
		}
		catch (InvalidLockKeyException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		LockManager manager = lockManager();
		AcquireResult result = manager.acquire(key, method.ttl());
		if (result instanceof AcquireResult.Acquired acquired) {
			Object returned;
			try {
				returned = invocation.proceed();
			}
			catch (Throwable ex) {
				manager.release(acquired.handle());
				throw ex;
			}
			if (returned == null) {
				manager.release(acquired.handle());
				return null;
			}
			return releaseOnCompletion((CompletionStage<?>) returned, acquired.handle(), manager, method, key);
		}
		if (result instanceof AcquireResult.Held held) {
			if (notRunBecauseHeld(method, key, held)) {
				return CompletableFuture.completedFuture(null);
			}
			return CompletableFuture.failedFuture(conflict(method, held));
		}
		try {
			proceedWithoutLock(method, key, (AcquireResult.Failed) result);
		}
		catch (LockStoreUnavailableException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return invocation.proceed();
	}

	/**
	 * A future that completes like the method's stage, once the lock is released. Cancelling
	 * it cancels the method's future, which releases the lock.
	 */
	private static CompletableFuture<Object> releaseOnCompletion(CompletionStage<?> stage, LockHandle handle,
			LockManager manager, LockableMethod method, String key) {
		CompletableFuture<Object> result = new CompletableFuture<>();
		stage.whenComplete((value, error) -> manager.releaseAsync(handle).whenComplete((ignored, neverFails) -> {
			if (LockAttempts.isFinishLogged(method)) {
				LockAttempts.finished(method, key, manager.store().name(), handle.elapsed(), error,
						error instanceof java.util.concurrent.CancellationException);
			}
			if (error != null) {
				result.completeExceptionally(error);
			}
			else {
				result.complete(value);
			}
		}));
		if (stage instanceof Future<?> future) {
			result.whenComplete((value, error) -> {
				if (result.isCancelled()) {
					future.cancel(true);
				}
			});
		}
		return result;
	}

	String key(MethodInvocation invocation, LockableMethod method) {
		try {
			return method.key(invocation.getThis(), invocation.getArguments());
		}
		catch (InvalidLockKeyException ex) {
			LockAttempts.invalidKey(method, ex);
			throw ex;
		}
	}

	LockManager lockManager() {
		return this.lockManager.obtain();
	}

	/**
	 * Logs a held lock; returns whether the call is skipped (policy SKIP) rather than
	 * refused with a conflict.
	 */
	boolean notRunBecauseHeld(LockableMethod method, String key, AcquireResult.Held held) {
		String store = lockManager().store().name();
		if (method.conflictPolicy() == ConflictPolicy.SKIP) {
			LockAttempts.skipped(method, key, store, held);
			return true;
		}
		LockAttempts.conflicted(method, key, store, held);
		return false;
	}

	static LockConflictException conflict(LockableMethod method, AcquireResult.Held held) {
		return new LockConflictException(method.conflictPolicy(),
				(held.remainingTtl() != null) ? held.remainingTtl() : method.ttl());
	}

	/**
	 * The store failed: with {@link StoreFailurePolicy#FAIL} throws, with
	 * {@link StoreFailurePolicy#PROCEED} returns so that the caller runs the method
	 * unlocked. Logged either way.
	 */
	void proceedWithoutLock(LockableMethod method, String key, AcquireResult.Failed failed) {
		boolean proceeding = this.storeFailure == StoreFailurePolicy.PROCEED;
		LockAttempts.storeFailed(method, key, lockManager().store().name(), failed.cause(), proceeding);
		if (!proceeding) {
			throw new LockStoreUnavailableException(
					"Lock store unavailable; " + method.description() + " did not run", failed.cause());
		}
	}

}
