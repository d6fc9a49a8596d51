package io.github.lockable.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
 * <p>
 * A waiter of such a store resumes off the thread that woke it ({@link #offWakingThread}).
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

	/**
	 * A wait whose dependents run where blocking is allowed. A blocking store's waiter is
	 * woken by the JDK's one timer thread, which every timeout of the JVM shares (a
	 * connection's deadline among them), or on the thread of another caller's release; the
	 * waiter's next acquire blocks, and must run on neither. Its dependents run on Reactor's
	 * bounded elastic scheduler when Reactor is on the class path, on daemon threads
	 * ({@code lockable-resume}, gone after 30 s idle) otherwise. Cancelling the returned
	 * stage completes the wait underneath, so that its waiter is forgotten.
	 * @param wait the wait, completed by a timer or a release
	 * @return the wait itself if it is done, else a stage completed after it, off its thread
	 */
	public static CompletableFuture<Void> offWakingThread(CompletableFuture<Void> wait) {
		if (wait.isDone()) {
			return wait;
		}
		CompletableFuture<Void> resumed = wait.thenRunAsync(() -> {
		}, NonBlockingCallers::resume);
		resumed.whenComplete((done, ex) -> wait.complete(null));
		return resumed;
	}

	private static void resume(Runnable task) {
		if (REACTOR_PRESENT) {
			try {
				Reactor.schedule(task);
				return;
			}
			catch (RejectedExecutionException ex) {
				// the scheduler is full or shut down: the daemon threads take it
			}
		}
		ResumeThreads.EXECUTOR.execute(task);
	}

	/** Created on first use, when a waiter resumes without Reactor. */
	private static final class ResumeThreads {

		static final Executor EXECUTOR = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
				new SynchronousQueue<>(), (task) -> {
					Thread thread = new Thread(task, "lockable-resume");
					thread.setDaemon(true);
					return thread;
				});

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
