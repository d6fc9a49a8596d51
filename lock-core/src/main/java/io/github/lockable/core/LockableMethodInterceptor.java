package io.github.lockable.core;

import java.util.concurrent.CompletableFuture;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.lockable.InvalidLockKeyException;

/**
 * The advice around every {@code @Lockable} method: resolve the key, acquire, run, release.
 * One strategy per return kind carries out the decisions of the {@link LockFlow} that
 * {@link io.github.lockable.LockTemplate} shares. An invalid key is thrown at a blocking
 * caller and signalled the way the kind signals errors otherwise.
 */
final class LockableMethodInterceptor implements MethodInterceptor {

	private final LockableMethods methods;

	private final BlockingLocking blocking;

	private final FutureLocking futures;

	/** Null without Reactor on the class path, where no method is of the Mono kind. */
	private final @Nullable ReactiveLocking reactive;

	LockableMethodInterceptor(LockableMethods methods, LockFlow flow) {
		this.methods = methods;
		this.blocking = new BlockingLocking(flow);
		this.futures = new FutureLocking(flow);
		this.reactive = ReturnKind.REACTOR_PRESENT ? new ReactiveLocking(flow) : null;
		// Loaded and started now: loading a class or starting a thread fails on an exhausted stack.
		ReleaseHandoff.prepare();
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		LockableMethod method = this.methods.get(invocation.getMethod(), invocation.getThis());
		String key;
		try {
			key = method.key(invocation.getThis(), invocation.getArguments());
		}
		catch (InvalidLockKeyException ex) {
			LockFlow.invalidKey(method, ex);
			return switch (method.returnKind()) {
				case COMPLETION_STAGE -> CompletableFuture.failedFuture(ex);
				case MONO -> ReactiveLocking.failed(ex);
				default -> throw ex;
			};
		}
		return switch (method.returnKind()) {
			case COMPLETION_STAGE -> this.futures.invoke(invocation, method, key);
			case MONO -> this.reactive.invoke(invocation, method, key);
			default -> this.blocking.invoke(invocation, method, key);
		};
	}

}
