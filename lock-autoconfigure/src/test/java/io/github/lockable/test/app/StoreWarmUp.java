package io.github.lockable.test.app;

import java.time.Duration;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.Stages;

import static org.awaitility.Awaitility.await;

/**
 * Waits until a store answers, so that the first connection of a fresh application, slow on
 * a loaded machine, is not mistaken for a store failure by the test that happens to run
 * first.
 */
public final class StoreWarmUp {

	private StoreWarmUp() {
	}

	public static void awaitAnswering(LockStore store) {
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			AcquireResult result = Stages.join(store.acquire(new LockRequest("lock:warm-up", Duration.ofMillis(1))));
			if (result instanceof AcquireResult.Acquired acquired) {
				Stages.join(acquired.handle().release());
			}
			return !(result instanceof AcquireResult.Failed);
		});
	}

}
