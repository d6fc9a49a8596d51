package io.github.lockable.core;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.github.lockable.store.LockStoreException;

/**
 * The one place where a blocking caller waits for a store's stage: the lock manager's
 * blocking methods, a held lock's close and extend, and through them the template.
 * <p>
 * The wait is not cut short by an interrupt: every store bounds its stages by its own
 * timeout, and a release abandoned halfway would leave the lock for its whole TTL. The
 * interrupt is kept for the caller.
 */
final class StoreStages {

	private StoreStages() {
	}

	/**
	 * Waits for the stage and gives its value, or throws what it failed with as the
	 * blocking callers expect it: a {@link LockStoreException} (or any other unchecked
	 * exception) as itself, never wrapped in a {@link CompletionException}.
	 * @param <T> the value's type
	 * @param stage what a store operation returned
	 * @return the stage's value
	 */
	static <T> T await(CompletionStage<T> stage) {
		try {
			return stage.toCompletableFuture().join();
		}
		catch (CompletionException | CancellationException ex) {
			throw unwrapped(ex);
		}
	}

	private static RuntimeException unwrapped(RuntimeException ex) {
		Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
		if (cause instanceof RuntimeException runtime) {
			return runtime;
		}
		if (cause instanceof Error error) {
			throw error;
		}
		return new LockStoreException("Lock store failed: " + cause, cause);
	}

}
