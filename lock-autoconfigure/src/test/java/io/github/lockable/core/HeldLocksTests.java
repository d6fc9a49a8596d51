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
		LockHandle handle = acquired(manager.acquire("lock:job", Duration.ofSeconds(30)));
		manager.acquire("lock:job", Duration.ofSeconds(30));
		assertThat(manager.heldLocks().snapshot()).singleElement().satisfies((held) -> {
			assertThat(held.key()).isEqualTo("lock:job");
			assertThat(held.acquiredAt()).isEqualTo(handle.lease().acquiredAt());
			assertThat(held.ttl()).isEqualTo(Duration.ofSeconds(30));
			assertThat(held.age().isNegative()).isFalse();
			assertThat(held.ttlLeft()).isEqualTo(held.ttl().minus(held.age()));
		});
		manager.release(handle);
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void anAsynchronousReleaseForgetsTheLock() {
		LockManager manager = recording(new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE));
		LockHandle handle = acquired(manager.acquireAsync("lock:job", Duration.ofSeconds(30)).toCompletableFuture().join());
		assertThat(manager.heldLocks().snapshot()).extracting(HeldLockInfo::key).containsExactly("lock:job");
		manager.releaseAsync(handle).toCompletableFuture().join();
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void aFailedReleaseStillForgetsTheLock() {
		LockManager manager = recording(new LockManager(new LockManagerTests.BrokenReleaseStore(), 1, LockMetrics.NONE));
		LockHandle handle = acquired(manager.acquire("lock:broken", Duration.ofSeconds(30)));
		LockHandle asyncHandle = acquired(manager.acquire("lock:broken-async", Duration.ofSeconds(30)));
		assertThat(manager.heldLocks().snapshot()).hasSize(2);
		manager.release(handle);
		manager.releaseAsync(asyncHandle).toCompletableFuture().join();
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void aLockPastItsTtlHasNoTtlLeft() {
		LockManager manager = recording(new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE));
		LockHandle handle = acquired(manager.acquire("lock:short", Duration.ofMillis(1)));
		await().until(() -> handle.elapsed().compareTo(Duration.ofMillis(2)) > 0);
		assertThat(manager.heldLocks().snapshot()).singleElement()
			.satisfies((held) -> assertThat(held.ttlLeft()).isZero());
	}

	@Test
	void aHandleReleasedWithoutTheManagerIsForgotten() {
		LockManager manager = recording(new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE));
		acquired(manager.acquire("lock:job", Duration.ofSeconds(30))).release().toCompletableFuture().join();
		assertThat(manager.heldLocks().snapshot()).isEmpty();
	}

	@Test
	void nothingIsRecordedBeforeSomebodyAsks() {
		LockManager manager = new LockManager(new MemoryLockStore(), 1, LockMetrics.NONE);
		LockHandle before = acquired(manager.acquire("lock:before", Duration.ofSeconds(30)));
		HeldLocks held = manager.heldLocks();
		assertThat(held.snapshot()).isEmpty();
		LockHandle after = acquired(manager.acquire("lock:after", Duration.ofSeconds(30)));
		assertThat(held.snapshot()).extracting(HeldLockInfo::key).containsExactly("lock:after");
		manager.release(before);
		manager.release(after);
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

	private static LockHandle acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

}
