package io.github.lockable.aop;

import java.util.concurrent.CompletableFuture;

import org.aopalliance.intercept.MethodInvocation;
import reactor.core.publisher.Mono;

import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.core.LockManager;
import io.github.lockable.store.AcquireResult;

/**
 * Locking for methods that return a {@link Mono}. Loaded only when Reactor is on the class
 * path.
 * <p>
 * The method is called once, to assemble its Mono; the lock is taken when that Mono is
 * subscribed, by each subscription on its own, and released when it completes, fails or is
 * cancelled. An unsubscribed Mono holds nothing.
 */
final class ReactiveLocking {

	private ReactiveLocking() {
	}

	static Object invoke(MethodInvocation invocation, LockableMethod method, LockableMethodInterceptor interceptor)
			throws Throwable {
		String key;
		try {
			key = interceptor.key(invocation, method);
		}
		catch (InvalidLockKeyException ex) {
			return Mono.error(ex);
		}
		Mono<?> source = (Mono<?>) invocation.proceed();
		if (source == null) {
			return null;
		}
		LockManager manager = interceptor.lockManager();
		return Mono.defer(() -> {
			CompletableFuture<AcquireResult> acquiring = manager.acquireAsync(key, method.ttl()).toCompletableFuture();
			// A subscriber that cancels while the acquire is on its way must not leave the lock behind.
			Mono<AcquireResult> resource = Mono.fromFuture(acquiring, true)
				.doOnCancel(() -> acquiring.thenAccept((result) -> release(manager, result).subscribe()));
			return Mono.usingWhen(resource, (result) -> body(result, source, method, key, interceptor),
					(result) -> release(manager, result, method, key, null, false),
					(result, error) -> release(manager, result, method, key, error, false),
					(result) -> release(manager, result, method, key, null, true));
		});
	}

	private static Mono<?> body(AcquireResult result, Mono<?> source, LockableMethod method, String key,
			LockableMethodInterceptor interceptor) {
		if (result instanceof AcquireResult.Acquired) {
			return source;
		}
		if (result instanceof AcquireResult.Held held) {
			if (interceptor.notRunBecauseHeld(method, key, held)) {
				return Mono.empty();
			}
			return Mono.error(LockableMethodInterceptor.conflict(method, held));
		}
		try {
			interceptor.proceedWithoutLock(method, key, (AcquireResult.Failed) result);
		}
		catch (LockStoreUnavailableException ex) {
			return Mono.error(ex);
		}
		return source;
	}

	private static Mono<Void> release(LockManager manager, AcquireResult result) {
		if (result instanceof AcquireResult.Acquired acquired) {
			return Mono.fromCompletionStage(() -> manager.releaseAsync(acquired.handle()));
		}
		return Mono.empty();
	}

	private static Mono<Void> release(LockManager manager, AcquireResult result, LockableMethod method, String key,
			Throwable error, boolean cancelled) {
		Mono<Void> release = release(manager, result);
		if (result instanceof AcquireResult.Acquired acquired && LockAttempts.isFinishLogged(method)) {
			return release.doOnTerminate(() -> LockAttempts.finished(method, key, manager.store().name(),
					acquired.handle().elapsed(), error, cancelled));
		}
		return release;
	}

}
