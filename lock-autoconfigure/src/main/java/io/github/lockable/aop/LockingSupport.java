package io.github.lockable.aop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import org.aopalliance.intercept.MethodInvocation;

import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.ConflictPolicy;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.core.DefaultHeldLock;
import io.github.lockable.core.LockManager;
import io.github.lockable.core.LockRenewals;
import io.github.lockable.core.LockRenewals.Renewal;
import io.github.lockable.observation.LockObservationContext.Outcome;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockStoreException;

import org.jspecify.annotations.Nullable;
import org.springframework.util.function.SingletonSupplier;

/**
 * The decisions every return kind shares, written once: the call's key, what an acquire
 * result means (run locked, run unlocked, skip, refuse), and the release with its log
 * event. The strategies per return kind ({@link BlockingLocking}, {@link FutureLocking},
 * {@link ReactiveLocking}) only translate these decisions into their kind of result, the
 * way Spring's {@code TransactionAspectSupport} shares its logic between its blocking and
 * reactive paths.
 */
final class LockingSupport {

	private final SingletonSupplier<LockManager> lockManager;

	private final SingletonSupplier<StoreFailurePolicy> storeFailure;

	private final SingletonSupplier<Executor> continuations;

	private final SingletonSupplier<LockRenewals> renewals;

	private final LockObservations observations;

	/**
	 * @param lockManager the lock manager, obtained on first use
	 * @param storeFailure what a store failure means, obtained on first use
	 * @param continuations where asynchronous kinds continue once the store answered, so
	 * that no user code runs on the store client's I/O threads or on the JDK's timeout thread
	 * @param renewals renews the locks of methods with {@code renew = true}, obtained on first use
	 * @param observations the observation registry and conventions, obtained on first use
	 */
	LockingSupport(Supplier<LockManager> lockManager, Supplier<StoreFailurePolicy> storeFailure,
			Supplier<Executor> continuations, Supplier<LockRenewals> renewals,
			Supplier<LockObservations.Settings> observations) {
		this.lockManager = SingletonSupplier.of(lockManager);
		this.storeFailure = SingletonSupplier.of(storeFailure);
		this.continuations = SingletonSupplier.of(continuations);
		this.renewals = SingletonSupplier.of(renewals);
		this.observations = new LockObservations(observations, () -> lockManager().store().name());
		// Loaded and started now: loading a class or starting a thread fails on an exhausted stack.
		ReleaseHandoff.prepare();
		HandedOffRelease.class.getName();
	}

	LockManager lockManager() {
		return this.lockManager.obtain();
	}

	/**
	 * Acquires, waiting on this thread when the method has a {@code waitTime}, observed.
	 * @return what the call does next
	 */
	Decision acquire(LockableMethod method, String key) {
		Observation acquisition = this.observations.acquisition(method, null);
		AcquireResult result;
		try (Observation.Scope scope = LockObservations.openScope(acquisition)) {
			LockManager manager = lockManager();
			result = manager.acquire(key, method.ttl(), method.waitTime(), method.metrics(manager));
		}
		catch (LockStoreException ex) {
			// A store that throws rather than answering Failed: the same decision as the asynchronous path.
			result = new AcquireResult.Failed(ex);
		}
		catch (RuntimeException ex) {
			LockObservations.acquired(acquisition, Outcome.FAILED, ex);
			throw ex;
		}
		return decide(method, key, result, acquisition);
	}

	/**
	 * The call's full key.
	 * @throws InvalidLockKeyException if the resolver's part breaks the key rules (logged)
	 */
	String key(MethodInvocation invocation, LockableMethod method) {
		try {
			return method.key(invocation.getThis(), invocation.getArguments());
		}
		catch (InvalidLockKeyException ex) {
			LockAttempts.invalidKey(method, ex);
			throw ex;
		}
	}

	/**
	 * What the call does after an acquire attempt; logs held locks and store failures, and
	 * stops the acquisition observation with the outcome. Nothing here can throw once a
	 * lock was acquired: the caller must reach its release.
	 */
	private Decision decide(LockableMethod method, String key, AcquireResult result, Observation acquisition) {
		if (result instanceof AcquireResult.Acquired acquired) {
			LockObservations.acquired(acquisition, Outcome.ACQUIRED, null);
			storeAnswered(method);
			return new Decision.RunLocked(acquired.handle(), acquisition);
		}
		String store = lockManager().store().name();
		if (result instanceof AcquireResult.Held held) {
			storeAnswered(method);
			if (method.conflictPolicy() == ConflictPolicy.SKIP) {
				LockObservations.acquired(acquisition, Outcome.SKIPPED, null);
				LockAttempts.skipped(method, key, store, held);
				return Decision.SKIP;
			}
			LockObservations.acquired(acquisition, Outcome.HELD, null);
			LockAttempts.conflicted(method, key, store, held);
			return new Decision.Refuse(new LockConflictException(method.conflictPolicy(),
					(held.remainingTtl() != null) ? held.remainingTtl() : method.ttl()));
		}
		LockStoreException cause = ((AcquireResult.Failed) result).cause();
		LockObservations.acquired(acquisition, Outcome.FAILED, cause);
		boolean proceeding = this.storeFailure.obtain() == StoreFailurePolicy.PROCEED;
		LockAttempts.storeFailed(method, key, store, cause, proceeding,
				method.storeOutage().failed(cause.getCode(), System.nanoTime()));
		if (proceeding) {
			return Decision.RUN_UNLOCKED;
		}
		if (method.conflictPolicy() == ConflictPolicy.SKIP) {
			// Its callers are schedulers and batch runners: the throttled ERROR above says it,
			// an exception would only add a stack trace per run.
			return Decision.SKIP;
		}
		return new Decision.Refuse(new LockStoreUnavailableException(
				"Lock store unavailable; " + method.description() + " did not run", cause));
	}

	private void storeAnswered(LockableMethod method) {
		long failures = method.storeOutage().recovered();
		if (failures > 0) {
			try {
				LockAttempts.storeRecovered(method, lockManager().store().name(), failures);
			}
			catch (RuntimeException ex) {
				// A log appender's trouble must not stand between a granted lock and its release.
			}
		}
	}

	/**
	 * A call that holds its lock: the lock as {@link io.github.lockable.LockContext} hands it
	 * to the method, renewed while the call runs when the method asks for it, and the
	 * observation of the work, started now.
	 */
	LockedCall locked(LockableMethod method, String key, Decision.RunLocked granted) {
		LockHandle handle = granted.handle();
		LockManager manager = lockManager();
		DefaultHeldLock lock = new DefaultHeldLock(manager, List.of(method.resourcePart(key)), List.of(handle),
				method.metrics(manager));
		Renewal renewal = null;
		if (method.renew()) {
			renewal = this.renewals.obtain().start(handle, method.ttl(), method.metrics(manager), () -> {
				lock.markLost();
				LockAttempts.lost(method, key, lockManager().store().name(), handle.elapsed(),
						lockManager().renewalLossCause(handle));
			});
		}
		return new LockedCall(this, method, key, lock, renewal,
				this.observations.execution(method, granted.acquisition()));
	}

	/**
	 * Releases the lock and logs how the call ended. Never throws.
	 */
	void release(LockableMethod method, String key, LockHandle handle, @Nullable Throwable error, boolean cancelled) {
		LockManager manager = lockManager();
		manager.release(handle, method.metrics(manager));
		logFinished(method, key, manager, handle, error, cancelled);
	}

	/**
	 * Releases, on another thread, a lock whose release could not run on the caller's:
	 * a {@link VirtualMachineError} came out of it. Allocates one object and queues it,
	 * which a nearly exhausted stack can still do.
	 * @param call the call, or {@code null} when it failed before it began
	 * @param error what the method threw, or {@code null}
	 * @param releaseError what came out of the release
	 */
	void handOffRelease(LockableMethod method, String key, LockHandle handle, @Nullable LockedCall call,
			@Nullable Throwable error, VirtualMachineError releaseError) {
		ReleaseHandoff.submit(handedOffRelease(method, key, handle, call, error, releaseError));
	}

	Runnable handedOffRelease(LockableMethod method, String key, LockHandle handle, @Nullable LockedCall call,
			@Nullable Throwable error, VirtualMachineError releaseError) {
		return new HandedOffRelease(this, method, key, handle, call, error, releaseError);
	}

	/**
	 * Releases the lock without blocking and logs how the call ended.
	 * @return a stage that completes, never exceptionally, once the release is done
	 */
	CompletableFuture<Void> releaseAsync(LockableMethod method, String key, LockHandle handle,
			@Nullable Throwable error, boolean cancelled) {
		LockManager manager = lockManager();
		return manager.releaseAsync(handle, method.metrics(manager))
			.thenRun(() -> logFinished(method, key, manager, handle, error, cancelled))
			.exceptionally((neverFromRelease) -> null)
			.toCompletableFuture();
	}

	private static void logFinished(LockableMethod method, String key, LockManager manager, LockHandle handle,
			@Nullable Throwable error, boolean cancelled) {
		if (LockAttempts.isFinishLogged(method)) {
			try {
				LockAttempts.finished(method, key, manager.store().name(), handle.elapsed(), error, cancelled);
			}
			catch (RuntimeException ex) {
				// The lock is released; a log appender's trouble must not mask the call's result.
			}
		}
	}

	/**
	 * Acquires without blocking the caller, observed, and hands what the call does next to
	 * the continuation, off the store's threads (see {@link #whenDone}). The acquisition
	 * observation ends when the store answered.
	 * @param parent the caller's observation when it is not current on this thread, or
	 * {@code null}
	 */
	void acquireAsync(LockableMethod method, String key, @Nullable Observation parent,
			Consumer<Decision> continuation) {
		Observation acquisition = this.observations.acquisition(method, parent);
		CompletionStage<AcquireResult> acquire;
		try (Observation.Scope scope = LockObservations.openScope(acquisition)) {
			LockManager manager = lockManager();
			acquire = manager.acquireAsync(key, method.ttl(), method.waitTime(), method.metrics(manager));
		}
		catch (RuntimeException ex) {
			LockObservations.acquired(acquisition, Outcome.FAILED, ex);
			throw ex;
		}
		whenDone(acquire,
				(result, error) -> continuation.accept(decide(method, key, acquireResult(result, error), acquisition)));
	}

	/**
	 * Runs the action with the stage's outcome: at once on this thread when the stage is
	 * already done, otherwise on the continuation executor, never on the thread that
	 * completed the stage (a Redis client's I/O thread, the JDK's timeout thread). An
	 * executor that refuses (it is shutting down) makes the action run where the stage
	 * completed rather than never: a lock must always reach its release.
	 */
	<T> void whenDone(CompletionStage<T> stage, BiConsumer<? super T, Throwable> action) {
		CompletableFuture<T> future = stage.toCompletableFuture();
		if (future.isDone()) {
			runWithOutcome(future, action);
			return;
		}
		future.whenComplete((value, error) -> {
			Runnable continuation = () -> action.accept(value, unwrap(error));
			try {
				this.continuations.obtain().execute(continuation);
			}
			catch (RejectedExecutionException ex) {
				continuation.run();
			}
		});
	}

	private static <T> void runWithOutcome(CompletableFuture<T> done, BiConsumer<? super T, Throwable> action) {
		T value;
		try {
			value = done.join();
		}
		catch (RuntimeException ex) {
			action.accept(null, unwrap(ex));
			return;
		}
		action.accept(value, null);
	}

	/**
	 * An acquire stage that failed instead of answering {@link AcquireResult.Failed}, as a
	 * store failure.
	 */
	private static AcquireResult acquireResult(@Nullable AcquireResult result, @Nullable Throwable error) {
		if (error == null && result != null) {
			return result;
		}
		return new AcquireResult.Failed((error instanceof LockStoreException storeException) ? storeException
				: new LockStoreException("Lock store failed: " + error, error));
	}

	static @Nullable Throwable unwrap(@Nullable Throwable error) {
		return (error instanceof CompletionException && error.getCause() != null) ? error.getCause() : error;
	}

	/**
	 * A release handed over by {@link #handOffRelease}: a named class rather than a lambda,
	 * whose first use would link it on the exhausted stack.
	 */
	private record HandedOffRelease(LockingSupport support, LockableMethod method, String key, LockHandle handle,
			@Nullable LockedCall call, @Nullable Throwable error, VirtualMachineError releaseError) implements Runnable {

		@Override
		public void run() {
			// Marked released before it failed, the store may not have been asked: ask it again;
			// a compare-and-delete of a lock already gone deletes nothing.
			boolean retry = this.handle.isReleased();
			if (this.call != null) {
				this.call.finish(this.error, false);
			}
			else {
				this.support.release(this.method, this.key, this.handle, this.error, false);
			}
			if (retry) {
				try {
					this.support.lockManager().store().release(this.handle.lease());
				}
				catch (RuntimeException ex) {
					// Reported by the release above, or runs out with its TTL.
				}
			}
			LockAttempts.releaseHandedOff(this.method, this.key, this.support.lockManager().store().name(),
					this.releaseError, this.error);
		}

	}

	/**
	 * What a call does after its acquire attempt.
	 */
	sealed interface Decision {

		/** Do not run the method: the policy is SKIP. */
		Decision SKIP = new Skip();

		/** Run the method without a lock: the store failed and the policy says proceed. */
		Decision RUN_UNLOCKED = new RunUnlocked();

		/**
		 * Run the method, then release.
		 * @param handle the granted lock
		 * @param acquisition the ended acquisition observation, whose parent the execution
		 * observation shares
		 */
		record RunLocked(LockHandle handle, Observation acquisition) implements Decision {
		}

		/** The policy is SKIP. */
		record Skip() implements Decision {
		}

		/** The store failed and the policy is to proceed. */
		record RunUnlocked() implements Decision {
		}

		/**
		 * Do not run the method; the caller gets the exception.
		 * @param exception a conflict or an unavailable store
		 */
		record Refuse(RuntimeException exception) implements Decision {
		}

	}

}
