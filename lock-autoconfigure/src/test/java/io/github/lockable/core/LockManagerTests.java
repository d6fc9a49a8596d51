package io.github.lockable.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.memory.MemoryLockStore;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class LockManagerTests {

	private final RecordingMetrics metrics = new RecordingMetrics();

	@Test
	void releaseOfALockThatRanOutWarnsAndCountsItLost(CapturedOutput output) {
		MemoryLockStore store = new MemoryLockStore();
		LockManager manager = new LockManager(store, 0.8, this.metrics);
		LockHandle handle = acquired(manager.acquire("lock:job", terms(Duration.ofMillis(20))));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> Stages.join(store.acquire(new LockRequest("lock:job", Duration.ofSeconds(10)))) instanceof AcquireResult.Acquired);
		manager.release(handle, terms(handle.lease().ttl()));
		assertThat(this.metrics.events).containsExactly("NOT_OWNER");
		assertThat(output).contains("Lock lock:job expired before release: TTL shorter than the work")
			.doesNotContain(handle.lease().token());
	}

	@Test
	void holderPastTheWarningShareOfItsTtlIsReported(CapturedOutput output) {
		LockManager manager = new LockManager(new MemoryLockStore(), 0.1, this.metrics);
		LockHandle handle = acquired(manager.acquire("lock:slow", terms(Duration.ofSeconds(2))));
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> handle.elapsed().toMillis() > 210);
		manager.release(handle, terms(handle.lease().ttl()));
		assertThat(this.metrics.events).containsExactly("RELEASED", "ttl warning");
		assertThat(output).contains("Lock lock:slow was held").contains("more than 10% of its TTL 2000ms");
	}

	@Test
	void quickHolderIsNotReported(CapturedOutput output) {
		LockManager manager = new LockManager(new MemoryLockStore(), 0.8, this.metrics);
		LockTerms terms = terms(Duration.ofSeconds(30));
		manager.release(acquired(manager.acquire("lock:quick", terms)), terms);
		assertThat(this.metrics.events).containsExactly("RELEASED");
		assertThat(output).doesNotContain("lock:quick");
	}

	@Test
	void failingReleaseIsLoggedNeverThrown(CapturedOutput output) {
		LockManager manager = new LockManager(new BrokenReleaseStore(), 0.8, this.metrics);
		LockHandle handle = acquired(manager.acquire("lock:broken", terms(Duration.ofSeconds(30))));
		manager.release(handle, terms(handle.lease().ttl()));
		LockHandle again = acquired(manager.acquire("lock:broken-async", terms(Duration.ofSeconds(30))));
		assertThat(manager.releaseAsync(again, terms(again.lease().ttl())).toCompletableFuture().join()).isNull();
		assertThat(this.metrics.events).containsExactly("release failed", "release failed");
		assertThat(output).contains("Failed to release lock lock:broken after")
			.contains("Failed to release lock lock:broken-async after")
			.contains("it runs out with its TTL 30000ms: store is down");
	}

	@Test
	void storeFailureOnAcquireIsReturnedForTheCallerToReport() {
		LockStore down = new BrokenReleaseStore() {
			@Override
			public java.util.concurrent.CompletionStage<AcquireResult> acquire(LockRequest request) {
				return CompletableFuture.completedFuture(
						new AcquireResult.Failed(new LockStoreException("no answer", "TIMEOUT", null)));
			}
		};
		LockManager manager = new LockManager(down, 0.8, this.metrics);
		AcquireResult result = manager.acquire("lock:down", terms(Duration.ofSeconds(1)));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("TIMEOUT");
		// The flow that decides what the failure means records it (AcquireOutcomeTests).
		assertThat(this.metrics.events).isEmpty();
	}

	private LockTerms terms(Duration ttl) {
		return new LockTerms(ttl, Duration.ZERO, this.metrics);
	}

	private static LockHandle acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	static class RecordingMetrics implements LockMetrics {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void acquireAttempted(AcquireResult result) {
			this.events.add((result instanceof AcquireResult.Acquired) ? "acquired"
					: (result instanceof AcquireResult.Held) ? "held" : "failed");
		}

		@Override
		public void released(ReleaseResult result, Duration held) {
			this.events.add(result.name());
		}

		@Override
		public void releaseFailed(Duration held) {
			this.events.add("release failed");
		}

		@Override
		public void ttlNearlyExhausted() {
			this.events.add("ttl warning");
		}

	}

	static class BrokenReleaseStore implements LockStore {

		private final MemoryLockStore delegate = new MemoryLockStore();

		@Override
		public String name() {
			return "broken";
		}

		@Override
		public java.util.concurrent.CompletionStage<Long> fencingToken(LockLease lease) {
			return this.delegate.fencingToken(lease);
		}

		@Override
		public java.util.concurrent.CompletionStage<AcquireResult> acquire(LockRequest request) {
			return this.delegate.acquire(request).thenApply((result) -> (result instanceof AcquireResult.Acquired acquired)
					? new AcquireResult.Acquired(new LockHandle(this, acquired.handle().lease())) : result);
		}

		@Override
		public java.util.concurrent.CompletionStage<ReleaseResult> release(LockLease lease) {
			return CompletableFuture.failedFuture(new LockStoreException("store is down"));
		}

		@Override
		public java.util.concurrent.CompletionStage<Boolean> extend(LockLease lease, Duration ttl) {
			return CompletableFuture.completedFuture(false);
		}

	}

}
