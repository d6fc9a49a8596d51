package io.github.lockable.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.lockable.core.HeldLocks.HeldLockInfo;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.memory.MemoryLockStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class HeldLocksTests {

	@Test
	void aGrantedLockIsHeldUntilItsRelease() {
		LockManager manager = recording(new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE));
		LockHandle handle = acquired(manager.acquire("lock:job", terms(Duration.ofSeconds(30))));
		manager.acquire("lock:job", terms(Duration.ofSeconds(30)));
		assertThat(manager.heldLocks().snapshot()).singleElement().satisfies((held) -> {
			assertThat(held.key()).isEqualTo("lock:job");
			assertThat(held.acquiredAt()).isEqualTo(handle.lease().acquiredAt());
			assertThat(held.ttl()).isEqualTo(Duration.ofSeconds(30));
			assertThat(held.age().isNegative()).isFalse();
			assertThat(held.ttlLeft()).isEqualTo(held.ttl().minus(held.age()));
		});
		manager.release(handle, terms(handle.lease().ttl()));
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void anAsynchronousReleaseForgetsTheLock() {
		LockManager manager = recording(new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE));
		LockHandle handle = acquired(manager.acquireAsync("lock:job", terms(Duration.ofSeconds(30))).toCompletableFuture().join());
		assertThat(manager.heldLocks().snapshot()).extracting(HeldLockInfo::key).containsExactly("lock:job");
		manager.releaseAsync(handle, terms(handle.lease().ttl())).toCompletableFuture().join();
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void aFailedReleaseStillForgetsTheLock() {
		LockManager manager = recording(new LockManager(new LockManagerTests.BrokenReleaseStore(), 1, LockMetrics.NONE));
		LockHandle handle = acquired(manager.acquire("lock:broken", terms(Duration.ofSeconds(30))));
		LockHandle asyncHandle = acquired(manager.acquire("lock:broken-async", terms(Duration.ofSeconds(30))));
		assertThat(manager.heldLocks().snapshot()).hasSize(2);
		manager.release(handle, terms(handle.lease().ttl()));
		manager.releaseAsync(asyncHandle, terms(asyncHandle.lease().ttl())).toCompletableFuture().join();
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void aLockPastItsTtlHasNoTtlLeft() {
		LockManager manager = recording(new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE));
		LockHandle handle = acquired(manager.acquire("lock:short", terms(Duration.ofMillis(1))));
		await().until(() -> handle.elapsed().compareTo(Duration.ofMillis(2)) > 0);
		assertThat(manager.heldLocks().snapshot()).singleElement()
			.satisfies((held) -> assertThat(held.ttlLeft()).isZero());
	}

	@Test
	void aHandleReleasedWithoutTheManagerIsForgotten() {
		LockManager manager = recording(new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE));
		acquired(manager.acquire("lock:job", terms(Duration.ofSeconds(30)))).release().toCompletableFuture().join();
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void nothingIsRecordedBeforeSomebodyAsks() {
		LockManager manager = new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE);
		LockHandle before = acquired(manager.acquire("lock:before", terms(Duration.ofSeconds(30))));
		HeldLocks held = manager.heldLocks();
		assertThat(held.snapshot()).isEmpty();
		LockHandle after = acquired(manager.acquire("lock:after", terms(Duration.ofSeconds(30))));
		assertThat(held.snapshot()).extracting(HeldLockInfo::key).containsExactly("lock:after");
		manager.release(before, terms(before.lease().ttl()));
		manager.release(after, terms(after.lease().ttl()));
		assertThat(held.snapshot()).isEmpty();
	}

	@Test
	void theSnapshotHasNoToken() {
		assertThat(HeldLockInfo.class.getRecordComponents()).extracting((component) -> component.getName())
			.containsExactly("key", "acquiredAt", "age", "ttl", "ttlLeft");
	}

	private static LockManager recording(LockManager manager) {
		manager.heldLocks();
		return manager;
	}

	private static LockTerms terms(Duration ttl) {
		return new LockTerms(ttl, Duration.ZERO, LockMetrics.NONE);
	}

	private static LockHandle acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

}
