package io.github.lockable.aop;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

	private static final Logger logger = LoggerFactory.getLogger(LockableMethodInterceptor.class);

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
			try {
				return invocation.proceed();
			}
			finally {
				manager.release(acquired.handle());
			}
		}
		if (result instanceof AcquireResult.Held held) {
			if (method.conflictPolicy() == ConflictPolicy.SKIP) {
				skipped(method, key, held);
				return (method.returnKind() == ReturnKind.OPTIONAL) ? Optional.empty() : null;
			}
			throw conflict(method, held);
		}
		failedWithoutLock(method, (AcquireResult.Failed) result);
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
			return releaseOnCompletion((CompletionStage<?>) returned, acquired.handle(), manager);
		}
		if (result instanceof AcquireResult.Held held) {
			if (method.conflictPolicy() == ConflictPolicy.SKIP) {
				skipped(method, key, held);
				return CompletableFuture.completedFuture(null);
			}
			return CompletableFuture.failedFuture(conflict(method, held));
		}
		try {
			failedWithoutLock(method, (AcquireResult.Failed) result);
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
			LockManager manager) {
		CompletableFuture<Object> result = new CompletableFuture<>();
		stage.whenComplete((value, error) -> manager.releaseAsync(handle).whenComplete((ignored, neverFails) -> {
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
			logger.warn("{}: not run, {}", method.description(), ex.getMessage());
			throw ex;
		}
	}

	LockManager lockManager() {
		return this.lockManager.obtain();
	}

	void skipped(LockableMethod method, String key, AcquireResult.Held held) {
		if (logger.isInfoEnabled()) {
			logger.info("{} skipped, already running: lock {} held{}{}", method.description(), key,
					(held.remainingTtl() != null) ? ", " + held.remainingTtl().toMillis() + "ms of TTL left" : "",
					(held.age() != null) ? ", acquired " + held.age().toMillis() + "ms ago" : "");
		}
	}

	static LockConflictException conflict(LockableMethod method, AcquireResult.Held held) {
		return new LockConflictException(method.conflictPolicy(),
				(held.remainingTtl() != null) ? held.remainingTtl() : method.ttl());
	}

	/**
	 * The store failed: with {@link StoreFailurePolicy#FAIL} throws, with
	 * {@link StoreFailurePolicy#PROCEED} logs and returns so that the caller runs the method
	 * unlocked.
	 */
	void failedWithoutLock(LockableMethod method, AcquireResult.Failed failed) {
		if (this.storeFailure == StoreFailurePolicy.PROCEED) {
			logger.warn("{}: lock store unavailable, running without a lock (lockable.store-failure=proceed)",
					method.description());
			return;
		}
		throw new LockStoreUnavailableException("Lock store unavailable; " + method.description() + " did not run",
				failed.cause());
	}

}
