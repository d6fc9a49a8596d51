package io.github.lockable.aop;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The advice around every {@code @Lockable} method: resolve the key, acquire, run, release.
 * One strategy per return kind carries out the decisions of {@link LockingSupport}.
 */
final class LockableMethodInterceptor implements MethodInterceptor {

	private final LockableMethods methods;

	private final BlockingLocking blocking;

	private final FutureLocking futures;

	/** Null without Reactor on the class path, where no method is of the Mono kind. */
	private final @Nullable ReactiveLocking reactive;

	LockableMethodInterceptor(LockableMethods methods, LockingSupport support) {
		this.methods = methods;
		this.blocking = new BlockingLocking(support);
		this.futures = new FutureLocking(support);
		this.reactive = ReturnKind.REACTOR_PRESENT ? new ReactiveLocking(support) : null;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		LockableMethod method = this.methods.get(invocation.getMethod(), invocation.getThis());
		return switch (method.returnKind()) {
			case COMPLETION_STAGE -> this.futures.invoke(invocation, method);
			case MONO -> this.reactive.invoke(invocation, method);
			default -> this.blocking.invoke(invocation, method);
		};
	}

}
