package io.github.lockable.core;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.LockContext;

/**
 * Locking for methods that return a {@link CompletableFuture} or {@link CompletionStage}.
 * <p>
 * The acquire does not block the caller: the caller gets its future at once, and the
 * method runs once the store granted the lock (on the caller's thread when the store
 * answered at once, otherwise on the continuation executor). The lock is held until the
 * method's own stage completes, and released before the caller's future completes.
 * Cancelling the caller's future completes it at once but does not release the lock:
 * cancelling a {@code CompletableFuture} does not stop the work behind it.
 */
final class FutureLocking {

	private static final LockContext.Scope NO_SCOPE = () -> {
	};

	private final LockFlow flow;

	FutureLocking(LockFlow flow) {
		this.flow = flow;
	}

	Object invoke(MethodInvocation invocation, LockableMethod method, String key) {
		CompletableFuture<Object> caller = new CompletableFuture<>();
		this.flow.acquireAsync(method, key, null, (decision) -> acquired(invocation, method, key, decision, caller));
		return caller;
	}

	private void acquired(MethodInvocation invocation, LockableMethod method, String key, Decision decision,
			CompletableFuture<Object> caller) {
		if (decision instanceof Decision.Refuse refuse) {
			caller.completeExceptionally(refuse.exception());
			return;
		}
		if (decision == Decision.SKIP) {
			caller.complete(null);
			return;
		}
		LockedCall call = (decision instanceof Decision.RunLocked locked)
				? this.flow.holdCall(method, key, locked) : null;
		CompletionStage<?> stage;
		try (LockContext.Scope scope = (call != null) ? call.open() : NO_SCOPE) {
			stage = (CompletionStage<?>) invocation.proceed();
		}
		catch (Throwable ex) {
			ended(call, null, ex, caller);
			return;
		}
		if (stage == null) {
			ended(call, null, null, caller);
			return;
		}
		stage.whenComplete((value, error) -> ended(call, value, LockFlow.unwrap(error), caller));
	}

	/** The method's work ended: release, then complete the caller's future off the store's threads. */
	private void ended(@Nullable LockedCall call, @Nullable Object value, @Nullable Throwable error,
			CompletableFuture<Object> caller) {
		if (call == null) {
			complete(caller, value, error);
			return;
		}
		this.flow.whenDone(call.finishAsync(error, error instanceof CancellationException),
				(ignored, neverFails) -> complete(caller, value, error));
	}

	private static void complete(CompletableFuture<Object> caller, @Nullable Object value, @Nullable Throwable error) {
		if (error != null) {
			caller.completeExceptionally(error);
		}
		else {
			caller.complete(value);
		}
	}

}
