package io.github.lockable.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;


import org.springframework.core.Ordered;
import org.springframework.transaction.reactive.TransactionContext;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;

/**
 * Holds a lock taken inside a reactive transaction that the caller began (a
 * {@code TransactionalOperator} or a reactive {@code @Transactional} around the call) until
 * that transaction commits or rolls back, as {@link CallerTransactionRelease} does for a
 * transaction bound to the caller's thread: released when the method's Mono completed, the
 * lock would let a second caller in before the first one's writes are committed.
 * <p>
 * The release waits for the later of two ends: the transaction's, and the method's work.
 * A caller that cancels rolls its transaction back at once while the work it started runs
 * on, and the lock is held until that work ends, as on every other Mono path. Loaded only
 * when spring-tx is on the class path.
 */
final class ReactiveCallerTransactionRelease implements TransactionSynchronization, Ordered {

	// The log category of the package this class came from, which operators' logging configuration names
	private static final Logger logger = LoggerFactory.getLogger("io.github.lockable.aop.ReactiveCallerTransactionRelease");

	private static final CompletableFuture<Void> HELD_ON = CompletableFuture.completedFuture(null);

	private final LockFlow flow;

	/** The call's side and the transaction's: the one that ends last releases. */
	private final AtomicInteger running = new AtomicInteger(2);

	/** Set before the method is called when the lock was granted; never set otherwise. */
	private volatile @Nullable LockedCall call;

	private volatile @Nullable Throwable failure;

	private volatile boolean cancelled;

	private ReactiveCallerTransactionRelease(LockFlow flow) {
		this.flow = flow;
	}

	/**
	 * Registers with the subscriber's reactive transaction, if it has one with
	 * synchronization active, to hold a lock the call may be granted. Never throws.
	 * @param context the Reactor context of the call's subscriber
	 * @return the registered release, or {@code null} when a lock the call is granted is
	 * released when its work ends
	 */
	static @Nullable ReactiveCallerTransactionRelease registerIfActive(ContextView context, LockFlow flow) {
		// Where TransactionSynchronizationManager.forCurrentTransaction() finds the transaction
		// (Spring's TransactionalOperator and reactive @Transactional put it there), read
		// without subscribing: a plain Mono pays one look-up in its context.
		TransactionContext transaction = context.getOrDefault(TransactionContext.class, null);
		if (transaction == null) {
			return null;
		}
		try {
			TransactionSynchronizationManager synchronizations = new TransactionSynchronizationManager(transaction);
			if (!synchronizations.isSynchronizationActive()) {
				return null;
			}
			ReactiveCallerTransactionRelease release = new ReactiveCallerTransactionRelease(flow);
			synchronizations.registerSynchronization(release);
			return release;
		}
		catch (RuntimeException ex) {
			// The transaction ended meanwhile: release with the work, as without a transaction.
			return null;
		}
	}

	/** The lock was granted: its release waits for the transaction from now on. */
	void locked(LockedCall call, LockableMethod method, String key) {
		this.call = call;
		if (logger.isDebugEnabled()) {
			logger.debug("{} joined its caller's reactive transaction: lock {} is released when that "
					+ "transaction completes", method.description(), key);
		}
	}

	/** The call holds nothing (refused, skipped, run unlocked, cancelled before the call). */
	void notLocked() {
		this.running.decrementAndGet();
	}

	/**
	 * The method's work ended: its observation stops, and its lock is held on until the
	 * transaction completes, unless it already did.
	 * @return a stage that completes, never exceptionally, once the lock is released, or at
	 * once when the transaction's end releases it
	 */
	CompletableFuture<Void> workEnded(LockedCall call, @Nullable Throwable failure, boolean cancelled) {
		this.failure = failure;
		this.cancelled = cancelled;
		call.workEnded(failure);
		return (this.running.decrementAndGet() == 0) ? call.finishAsync(failure, cancelled) : HELD_ON;
	}

	/**
	 * Releases without blocking, committed or rolled back; the transaction's completion
	 * goes on once the lock is free, off the store's threads.
	 */
	@Override
	public Mono<Void> afterCompletion(int status) {
		if (this.running.decrementAndGet() != 0) {
			// The call has not ended: a caller that cancelled while the locked work runs on, or
			// an acquire still under way. Its end releases.
			return Mono.empty();
		}
		LockedCall call = this.call;
		if (call == null) {
			return Mono.empty();
		}
		return Mono.create((sink) -> this.flow.whenDone(call.finishAsync(this.failure, this.cancelled),
				(ignored, neverFails) -> sink.success()));
	}

	/** Released late rather than early: the lock must outlive the caller's commit. */
	@Override
	public int getOrder() {
		return LOWEST_PRECEDENCE;
	}

}
