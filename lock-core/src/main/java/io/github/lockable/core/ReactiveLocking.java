package io.github.lockable.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.util.context.Context;

import io.github.lockable.LockContext;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.util.ClassUtils;

/**
 * Locking for methods that return a {@link Mono}, and for Kotlin suspend functions, which
 * Spring's proxies run as a Mono. Loaded only when Reactor is on the class path.
 * <p>
 * Each subscription acquires on its own, without blocking, and only then calls the method,
 * on a fresh copy of the invocation, the way Spring's reactive transaction support does:
 * nothing the method does before returning its Mono runs unlocked, and an unsubscribed Mono
 * runs and holds nothing. The lock is held until the method's Mono terminates and released
 * before the subscriber is told. A subscriber that cancels ends its own subscription at
 * once, but the method's work runs on to its end and holds the lock until then: a cancel
 * does not stop work that is already running elsewhere, and the lock must not pretend it
 * did. A cancel that comes before the method was called releases the lock without calling
 * it. A call inside a reactive transaction its subscriber began holds the lock on until that
 * transaction completes ({@link ReactiveCallerTransactionRelease}).
 */
final class ReactiveLocking {

	private static final boolean TRANSACTIONS_PRESENT = ClassUtils.isPresent(
			"org.springframework.transaction.reactive.TransactionSynchronizationManager",
			ReactiveLocking.class.getClassLoader());

	private final LockFlow flow;

	ReactiveLocking(LockFlow flow) {
		this.flow = flow;
	}

	static Object failed(RuntimeException ex) {
		return Mono.error(ex);
	}

	Object invoke(MethodInvocation invocation, LockableMethod method, String key) {
		return Mono.create((sink) -> subscribed(invocation, method, key, sink));
	}

	private void subscribed(MethodInvocation invocation, LockableMethod method, String key, MonoSink<Object> sink) {
		AtomicBoolean cancelled = new AtomicBoolean();
		sink.onCancel(() -> cancelled.set(true));
		// Registered here, in the subscriber's chain, rather than where the store answered: a
		// transaction's synchronizations are not made for registration from several threads.
		ReactiveCallerTransactionRelease afterTransaction = afterCallerTransaction(sink);
		this.flow.acquireAsync(method, key, callerObservation(sink), (decision) -> {
			boolean cancelledBeforeCall = cancelled.get();
			if (afterTransaction != null && (cancelledBeforeCall || !(decision instanceof Decision.RunLocked))) {
				afterTransaction.notLocked();
			}
			if (cancelledBeforeCall) {
				// Cancelled before the method was called: call nothing, hold nothing.
				if (decision instanceof Decision.RunLocked locked) {
					this.flow.releaseAsync(method, key, locked.handle(), null, true);
				}
			}
			else if (decision instanceof Decision.RunLocked locked) {
				LockedCall call = this.flow.holdCall(method, key, locked);
				if (afterTransaction != null) {
					afterTransaction.locked(call, method, key);
				}
				run(invocation, call, afterTransaction, sink, cancelled);
			}
			else if (decision == Decision.RUN_UNLOCKED) {
				run(invocation, null, null, sink, cancelled);
			}
			else if (decision instanceof Decision.Refuse refuse) {
				signal(sink, cancelled, null, refuse.exception());
			}
			else {
				sink.success();
			}
		});
	}

	/** The subscriber's observation, which a WebFlux server or the caller put in the Reactor context. */
	@Nullable
	private static Observation callerObservation(MonoSink<Object> sink) {
		Object observation = sink.contextView().getOrDefault(ObservationThreadLocalAccessor.KEY, null);
		return (observation instanceof Observation caller) ? caller : null;
	}

	/** The release deferred to the end of the subscriber's reactive transaction, if it has one. */
	private @Nullable ReactiveCallerTransactionRelease afterCallerTransaction(MonoSink<Object> sink) {
		return TRANSACTIONS_PRESENT ? ReactiveCallerTransactionRelease.registerIfActive(sink.contextView(), this.flow)
				: null;
	}

	private void run(MethodInvocation invocation, @Nullable LockedCall call,
			@Nullable ReactiveCallerTransactionRelease afterTransaction, MonoSink<Object> sink, AtomicBoolean cancelled) {
		Mono<?> body;
		try (Observation.Scope scope = LockObservations.openScope((call != null) ? call.execution() : Observation.NOOP)) {
			body = (Mono<?>) proceed(invocation);
		}
		catch (Throwable ex) {
			ended(call, afterTransaction, sink, cancelled, null, ex);
			return;
		}
		if (body == null) {
			ended(call, afterTransaction, sink, cancelled, null, null);
			return;
		}
		AtomicReference<Object> value = new AtomicReference<>();
		// Not disposed on the subscriber's cancel: the lock is held until this work ends.
		Mono<?> locked = (call != null) ? body.contextWrite((context) -> withLock(context, call)) : body;
		locked.contextWrite(sink.contextView())
			.subscribe(value::set, (error) -> ended(call, afterTransaction, sink, cancelled, null, error),
					() -> ended(call, afterTransaction, sink, cancelled, value.get(), null));
	}

	/**
	 * The method's Mono sees the lock, and its operators see the execution observation as
	 * their parent, the way they see the one a web server put in the Reactor context.
	 */
	private static Context withLock(Context context, LockedCall call) {
		Context locked = context.put(LockContext.REACTOR_CONTEXT_KEY, call);
		return call.execution().isNoop() ? locked : locked.put(ObservationThreadLocalAccessor.KEY, call.execution());
	}

	/**
	 * Calls the method for one subscription. A proxy's invocation can proceed only once, so
	 * every subscription proceeds on its own copy.
	 */
	private static @Nullable Object proceed(MethodInvocation invocation) throws Throwable {
		if (invocation instanceof ProxyMethodInvocation proxyInvocation) {
			return proxyInvocation.invocableClone().proceed();
		}
		return invocation.proceed();
	}

	private void ended(@Nullable LockedCall call, @Nullable ReactiveCallerTransactionRelease afterTransaction,
			MonoSink<Object> sink, AtomicBoolean cancelled, @Nullable Object value, @Nullable Throwable error) {
		if (call == null) {
			signal(sink, cancelled, value, error);
			return;
		}
		CompletableFuture<Void> released = (afterTransaction != null)
				? afterTransaction.workEnded(call, error, cancelled.get()) : call.finishAsync(error, cancelled.get());
		this.flow.whenDone(released, (ignored, neverFails) -> signal(sink, cancelled, value, error));
	}

	private static void signal(MonoSink<Object> sink, AtomicBoolean cancelled, @Nullable Object value,
			@Nullable Throwable error) {
		if (cancelled.get()) {
			// Nobody listens any more; an error signalled now would only be reported as dropped.
			return;
		}
		if (error != null) {
			sink.error(error);
		}
		else if (value != null) {
			sink.success(value);
		}
		else {
			sink.success();
		}
	}

}
