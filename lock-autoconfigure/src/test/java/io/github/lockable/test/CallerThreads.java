package io.github.lockable.test;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * {@code CompletableFuture.runAsync} and {@code supplyAsync} for a test's second caller, on
 * a thread of its own: the common pool has one worker on two cores, and from Java 25 on
 * {@code CompletableFuture} uses it anyway, so a caller parked inside a lock would keep the
 * next one from ever starting.
 */
public final class CallerThreads {

	private static final SimpleAsyncTaskExecutor PER_CALLER = perCaller();

	private CallerThreads() {
	}

	public static CompletableFuture<Void> runAsync(Runnable call) {
		return CompletableFuture.runAsync(call, PER_CALLER);
	}

	public static <T> CompletableFuture<T> supplyAsync(Supplier<T> call) {
		return CompletableFuture.supplyAsync(call, PER_CALLER);
	}

	private static SimpleAsyncTaskExecutor perCaller() {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("test-caller-");
		executor.setDaemon(true);
		return executor;
	}

}
