package io.github.lockable.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import reactor.core.scheduler.Schedulers;

import org.springframework.util.ClassUtils;

/**
 * Where a store whose calls block (files, JDBC) does its work. A caller that must not
 * block, by Reactor's {@code Schedulers.isInNonBlockingThread()} (a Reactor Netty event
 * loop, Reactor's parallel scheduler), gets a stage that Reactor's bounded elastic
 * scheduler completes, as the work may wait up to the store's timeout; any other caller,
 * or every caller without Reactor, gets the stage complete before the call returns,
 * without a thread hop. Such a store needs no threads of its own.
 */
public final class NonBlockingCallers {

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.scheduler.Schedulers",
			NonBlockingCallers.class.getClassLoader());

	private NonBlockingCallers() {
	}

	/**
	 * Runs the work on the caller's thread, or off it for a caller that must not block.
	 * @param <T> the work's result
	 * @param work the blocking work, which reports a store failure by throwing a
	 * {@link LockStoreException}
	 * @return the stage of the work, failed with the exception it throws
	 */
	public static <T> CompletionStage<T> complete(Supplier<T> work) {
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
