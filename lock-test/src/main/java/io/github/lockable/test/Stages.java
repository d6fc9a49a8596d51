package io.github.lockable.test;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * Waits for a store's stage in a test, throwing what it failed with as itself, as a
 * blocking caller sees it.
 */
public final class Stages {

	private Stages() {
	}

	/**
	 * Waits for the stage.
	 * @param <T> the stage's result type, {@code Void} (completed with {@code null}) among them
	 * @param stage a store's stage
	 * @return the stage's result
	 * @throws RuntimeException the exception the stage failed with, unwrapped
	 */
	public static <T extends @Nullable Object> T join(CompletionStage<T> stage) {
		try {
			return stage.toCompletableFuture().join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException cause) {
				throw cause;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

}
