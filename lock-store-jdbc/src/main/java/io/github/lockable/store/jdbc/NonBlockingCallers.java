package io.github.lockable.store.jdbc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import org.springframework.util.ClassUtils;
import reactor.core.scheduler.Schedulers;

import io.github.lockable.store.LockStoreException;

/**
 * The thread of a call's statements. A caller that must not block, by Reactor's
 * {@code Schedulers.isInNonBlockingThread()} (a Reactor Netty event loop, Reactor's
 * parallel scheduler), gets a stage that Reactor's bounded elastic scheduler completes, as
 * a statement may wait for the pool and the database up to its timeout; any other caller, or every caller without Reactor,
 * gets the stage complete before the call returns, without a thread hop. The store has no
 * threads of its own. The file store's twin: each store module stands on its own.
 */
final class NonBlockingCallers {

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.scheduler.Schedulers",
			NonBlockingCallers.class.getClassLoader());

	private NonBlockingCallers() {
	}

	/**
	 * The stage of the work, failed with the {@link LockStoreException} it throws.
	 */
	static <T> CompletionStage<T> complete(Supplier<T> work) {
		if (REACTOR_PRESENT && Reactor.isNonBlocking()) {
			CompletableFuture<T> stage = new CompletableFuture<>();
			try {
				Reactor.schedule(() -> {
					try {
						stage.complete(work.get());
					}
					catch (Throwable ex) {
						stage.completeExceptionally(ex);
					}
				});
				return stage;
			}
			catch (RejectedExecutionException ex) {
				// the scheduler is full or shut down: do the work here, bounded by its timeout, rather than fail it
			}
		}
		try {
			return CompletableFuture.completedFuture(work.get());
		}
		catch (LockStoreException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/** Loaded only when Reactor is on the class path. */
	private static final class Reactor {

		static boolean isNonBlocking() {
			return Schedulers.isInNonBlockingThread();
		}

		static void schedule(Runnable task) {
			Schedulers.boundedElastic().schedule(task);
		}

	}

}
