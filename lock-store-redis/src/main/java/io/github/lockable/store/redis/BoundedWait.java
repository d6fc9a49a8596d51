package io.github.lockable.store.redis;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a future until a deadline. An interrupt does not cut the wait short: the wait
 * is bounded anyway, and a release abandoned halfway would leave the lock for its whole
 * TTL. The interrupt is kept for the caller.
 */
final class BoundedWait {

	private BoundedWait() {
	}

	static <T> T get(Future<T> future, long deadlineNanos) throws ExecutionException, TimeoutException {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return future.get(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
