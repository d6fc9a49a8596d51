package io.github.lockable.core;

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
import org.jspecify.annotations.Nullable;

import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;

import org.springframework.util.function.SingletonSupplier;

/**
 * The one decision-and-release flow of every locked call, {@code @Lockable} methods of
 * every return kind and {@link io.github.lockable.LockTemplate} alike: acquire, observed;
 * what the store's answer means, decided by {@link AcquireDecisions}; the held lock with its renewal and the observation of its
 * work; the release with its log line. The advice's strategies per return kind and the
 * template only translate these decisions into their kind of result, the way Spring's
 * {@code TransactionAspectSupport} shares its logic between its blocking and reactive
 * paths.
 */
final class LockFlow {

	private final SingletonSupplier<LockManager> lockManager;

	private final SingletonSupplier<StoreFailurePolicy> storeFailure;

	private final SingletonSupplier<Executor> continuations;

	private final SingletonSupplier<LockRenewals> renewals;

	private final SingletonSupplier<String> store;

	private final LockObservations observations;

	private final AcquireDecisions decisions;

	/**
	 * @param lockManager the lock manager, obtained on first use
	 * @param storeFailure what a store failure means, obtained on first use
	 * @param continuations where asynchronous calls continue once the store answered, so
	 * that no user code runs on the store client's I/O threads or on the JDK's timeout thread
	 * @param renewals renews the locks of operations that ask for it, obtained on first use
	 * @param observations the observation registry and conventions, obtained on first use
	 */
	public LockFlow(Supplier<LockManager> lockManager, Supplier<StoreFailurePolicy> storeFailure,
			Supplier<Executor> continuations, Supplier<LockRenewals> renewals,
			Supplier<LockObservations.Settings> observations) {
		this.lockManager = SingletonSupplier.of(lockManager);
		this.storeFailure = SingletonSupplier.of(storeFailure);
		this.continuations = SingletonSupplier.of(continuations);
		this.renewals = SingletonSupplier.of(renewals);
		this.store = SingletonSupplier.of(() -> lockManager().store().name());
		this.observations = new LockObservations(observations, this.store);
		this.decisions = new AcquireDecisions(this.store);
	}

	/**
	 * The lock manager.
	 * @return the lock manager
	 */
	public LockManager lockManager() {
		return this.lockManager.obtain();
	}

	/**
	 * Acquires, waiting on this thread when the operation has a wait time, observed.
	 * @param operation what runs under the lock
	 * @param key the full key
	 * @return what the call does next
	 */
	public Decision acquire(LockOperation operation, String key) {
		return acquire(operation, key, this.storeFailure.obtain());
	}

	/**
	 * As {@link #acquire(LockOperation, String)}, with the given meaning of a store failure.
	 * @param operation what runs under the lock
	 * @param key the full key
	 * @param storeFailure {@link StoreFailurePolicy#FAIL} where nothing can run unlocked
	 * @return what the call does next
	 */
	Decision acquire(LockOperation operation, String key, StoreFailurePolicy storeFailure) {
		Observation acquisition = this.observations.acquisition(operation, null);
		LockTerms terms;
		long start;
		AcquireResult result;
		try (Observation.Scope scope = LockObservations.openScope(acquisition)) {
			terms = operation.terms(lockManager());
			start = AcquireDecisions.start(terms);
			result = acquireAnswer(key, terms);
		}
		catch (RuntimeException ex) {
			throw LockEvents.acquireThrew(acquisition, ex);
		}
		return this.decisions.decide(operation, key, result, terms, start, acquisition, storeFailure);
	}

	/** A store that throws rather than answering Failed: the same decision as the asynchronous path. */
	private AcquireResult acquireAnswer(String key, LockTerms terms) {
		try {
			return lockManager().acquire(key, terms);
		}
		catch (LockStoreException ex) {
			return new AcquireResult.Failed(ex);
		}
	}

	/**
	 * Acquires without blocking the caller, observed, and hands what the call does next to
	 * the continuation, off the store's threads (see {@link #whenDone}). The acquisition
	 * observation ends when the store answered.
	 * @param operation what runs under the lock
	 * @param key the full key
	 * @param parent the caller's observation when it is not current on this thread, or
	 * {@code null}
	 * @param continuation what the call does next
	 */
	public void acquireAsync(LockOperation operation, String key, @Nullable Observation parent,
			Consumer<Decision> continuation) {
		Observation acquisition = this.observations.acquisition(operation, parent);
		LockTerms terms;
		long start;
		CompletionStage<AcquireResult> acquire;
		try (Observation.Scope scope = LockObservations.openScope(acquisition)) {
			terms = operation.terms(lockManager());
			start = AcquireDecisions.start(terms);
			acquire = lockManager().acquireAsync(key, terms);
		}
		catch (RuntimeException ex) {
			throw LockEvents.acquireThrew(acquisition, ex);
		}
		whenDone(acquire, (result, error) -> continuation.accept(this.decisions.decide(operation, key,
				acquireResult(result, error), terms, start, acquisition, this.storeFailure.obtain())));
	}

	/**
	 * The lock of a call that was granted it: renewed while the call runs when the
	 * operation asks for it, with the observation of its work started now. Its
	 * {@link DefaultHeldLock#finish finish} releases through this flow.
	 * @param operation what runs under the lock
	 * @param key the full key
	 * @param granted the decision that granted it
	 * @return the held lock
	 */
	public DefaultHeldLock hold(LockOperation operation, String key, Decision.RunLocked granted) {
		LockTerms terms = operation.terms(lockManager());
		DefaultHeldLock lock = new DefaultHeldLock(this, operation, granted.handle(),
				this.observations.execution(operation, granted.acquisition()));
		renewIfAsked(lock, operation, key, terms);
		return lock;
	}

	/**
	 * As {@link #hold}, for a {@code @Lockable} call: the held lock is the call, which the
	 * release hand-off can find.
	 * @param method the method that runs under the lock
	 * @param key the full key
	 * @param granted the decision that granted it
	 * @return the call, holding its lock
	 */
	LockedCall holdCall(LockableMethod method, String key, Decision.RunLocked granted) {
		return holdCall(method, key, granted.handle(), granted.acquisition());
	}

	/**
	 * As {@link #holdCall(LockableMethod, String, Decision.RunLocked)}, with the parts of the
	 * decision.
	 * @param method the method that runs under the lock
	 * @param key the full key
	 * @param handle the granted lock
	 * @param acquisition the ended acquisition observation
	 * @return the call, holding its lock
	 */
	LockedCall holdCall(LockableMethod method, String key, LockHandle handle, Observation acquisition) {
		LockTerms terms = method.terms(lockManager());
		LockedCall call = new LockedCall(this, method, handle,
				this.observations.execution(method, acquisition));
		renewIfAsked(call, method, key, terms);
		return call;
	}

	private void renewIfAsked(DefaultHeldLock lock, LockOperation operation, String key, LockTerms terms) {
		if (operation.renew()) {
			LockHandle handle = lock.handle();
			lock.renewWith(this.renewals.obtain().start(handle, terms, () -> {
				lock.markLost();
				// The terms are looked up again rather than captured: one field less per renewed call.
				operation.terms(lockManager()).events().lost(operation, key, this.store.obtain(), handle,
						lockManager().renewalLossCause(handle));
			}));
		}
	}

	/**
	 * Releases one lock and logs how the call ended. Never throws.
	 * @param operation what ran under the lock
	 * @param key the full key
	 * @param handle the granted lock
	 * @param error what the work threw, or {@code null}
	 * @param cancelled whether the caller cancelled
	 */
	public void release(LockOperation operation, String key, LockHandle handle, @Nullable Throwable error,
			boolean cancelled) {
		LockManager manager = lockManager();
		finished(operation, key, handle, error, cancelled, manager.release(handle, operation.terms(manager)));
	}

	/**
	 * Releases the lock without blocking and logs how the call ended.
	 * @param operation what ran under the lock
	 * @param key the full key
	 * @param handle the granted lock
	 * @param error what the work failed with, or {@code null}
	 * @param cancelled whether the caller cancelled
	 * @return a stage that completes, never exceptionally, once the release is done
	 */
	public CompletableFuture<Void> releaseAsync(LockOperation operation, String key, LockHandle handle,
			@Nullable Throwable error, boolean cancelled) {
		LockManager manager = lockManager();
		return manager.releaseAsync(handle, operation.terms(manager))
			.thenAccept((released) -> finished(operation, key, handle, error, cancelled, released))
			.exceptionally((neverFromRelease) -> null)
			.toCompletableFuture();
	}

	private void finished(LockOperation operation, String key, LockHandle handle, @Nullable Throwable error,
			boolean cancelled, @Nullable ReleaseResult released) {
		operation.terms(lockManager()).events()
			.finished(operation, key, this.store.obtain(), handle, error, cancelled, released);
	}

	/**
	 * Logs a key that broke the key rules; the message does not contain the value.
	 * @param operation the operation that was not run
	 * @param ex the refusal
	 */
	public static void invalidKey(LockOperation operation, InvalidLockKeyException ex) {
		LockEvents.invalidKey(operation, ex);
	}

	/**
	 * Logs a release that could not run on the caller's thread and ran on this one.
	 * @param operation what ran under the lock
	 * @param key the full key
	 * @param releaseError what came out of the release on the caller's thread
	 * @param error what the work threw, or {@code null}
	 */
	public void releaseHandedOff(LockOperation operation, String key, Throwable releaseError,
			@Nullable Throwable error) {
		operation.terms(lockManager()).events().releaseHandedOff(operation, key, this.store.obtain(), releaseError,
				error);
	}

	/**
	 * Runs the action with the stage's outcome: at once on this thread when the stage is
	 * already done, otherwise on the continuation executor, never on the thread that
	 * completed the stage (a Redis client's I/O thread, the JDK's timeout thread). An
	 * executor that refuses (it is shutting down) makes the action run where the stage
	 * completed rather than never: a lock must always reach its release.
	 * @param <T> the stage's value
	 * @param stage the stage
	 * @param action what to run with its value or error
	 */
	public <T> void whenDone(CompletionStage<T> stage, BiConsumer<? super T, Throwable> action) {
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

	/**
	 * The cause of a {@link CompletionException}, or the error itself.
	 * @param error a stage's error
	 * @return what the work failed with
	 */
	public static @Nullable Throwable unwrap(@Nullable Throwable error) {
		return (error instanceof CompletionException && error.getCause() != null) ? error.getCause() : error;
	}

}
