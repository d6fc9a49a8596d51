package io.github.lockable.store.memory;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockStoreContract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class MemoryLockStoreTests extends LockStoreContract {

	private MemoryLockStore store;

	@Override
	protected LockStore createStore() {
		this.store = new MemoryLockStore();
		return this.store;
	}

	@Test
	void ttlRunsOnTheGivenMonotonicClock() {
		AtomicLong nanos = new AtomicLong(Long.MAX_VALUE - 1_000_000_000L);
		MemoryLockStore store = new MemoryLockStore(nanos::get);
		LockRequest request = new LockRequest("clock", Duration.ofMillis(500));
		assertThat(Stages.join(store.acquire(request))).isInstanceOf(AcquireResult.Acquired.class);
		nanos.addAndGet(Duration.ofMillis(200).toNanos());
		AcquireResult.Held held = (AcquireResult.Held) Stages.join(store.acquire(request));
		assertThat(held.remainingTtl()).isEqualTo(Duration.ofMillis(300));
		assertThat(held.age()).isEqualTo(Duration.ofMillis(200));
		// past Long.MAX_VALUE: the clock wraps, the comparison must not
		nanos.addAndGet(Duration.ofMillis(300).toNanos());
		assertThat(Stages.join(store.acquire(request))).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void expiredLocksOfForgottenKeysAreSwept() {
		AtomicLong nanos = new AtomicLong();
		MemoryLockStore store = new MemoryLockStore(nanos::get);
		for (int i = 0; i < 100; i++) {
			Stages.join(store.acquire(new LockRequest("forgotten-" + i, Duration.ofMillis(10))));
		}
		assertThat(store.size()).isEqualTo(100);
		nanos.addAndGet(Duration.ofMillis(10).toNanos());
		store.sweep(nanos.get());
		assertThat(store.size()).isZero();
	}

	@Test
	void sweepKeepsLiveLocks() {
		AtomicLong nanos = new AtomicLong();
		MemoryLockStore store = new MemoryLockStore(nanos::get);
		Stages.join(store.acquire(new LockRequest("short", Duration.ofMillis(10))));
		Stages.join(store.acquire(new LockRequest("long", Duration.ofSeconds(10))));
		nanos.addAndGet(Duration.ofMillis(20).toNanos());
		store.sweep(nanos.get());
		assertThat(store.size()).isEqualTo(1);
		assertThat(Stages.join(store.acquire(new LockRequest("long", Duration.ofSeconds(1)))))
			.isInstanceOf(AcquireResult.Held.class);
	}

	@Test
	void aNewStoreIssuesTokensAboveThoseOfTheStoreBefore() {
		// An application on the memory store that restarts: its fenced storage kept the old tokens.
		long before = ((AcquireResult.Acquired) Stages.join(new MemoryLockStore().acquire(new LockRequest("lock:a",
				Duration.ofSeconds(30))))).handle().lease().fencingToken();
		// A restart takes longer than the clock's millisecond.
		await().until(() -> System.currentTimeMillis() * 1000 > before);
		long after = ((AcquireResult.Acquired) Stages.join(new MemoryLockStore().acquire(new LockRequest("lock:a",
				Duration.ofSeconds(30))))).handle().lease().fencingToken();
		assertThat(after).isGreaterThan(before);
	}

}
