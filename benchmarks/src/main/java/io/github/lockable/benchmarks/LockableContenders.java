package io.github.lockable.benchmarks;

import java.time.Duration;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;

/**
 * Lockable, measured twice: its store (Redis or JDBC) called directly, and the whole product path, a
 * {@code @Lockable} method called through its Spring proxy with a named resolver.
 */
final class LockableContenders {

	private LockableContenders() {
	}

	static Contender store(LockStore store, Duration ttl) {
		return store("Lockable store", store, ttl);
	}

	static Contender store(String name, LockStore store, Duration ttl) {
		return new Contender() {

			@Override
			public String name() {
				return name;
			}

			@Override
			public Attempt on(String key, int thread) {
				LockRequest request = new LockRequest(key, ttl);
				return (section) -> {
					AcquireResult result = store.acquire(request).toCompletableFuture().join();
					if (result instanceof AcquireResult.Acquired acquired) {
						section.run();
						acquired.handle().release().toCompletableFuture().join();
						return true;
					}
					if (result instanceof AcquireResult.Failed failed) {
						throw failed.cause();
					}
					return false;
				};
			}

		};
	}

	static Contender path(GuardedWork work) {
		return new Contender() {

			@Override
			public String name() {
				return "@Lockable path";
			}

			@Override
			public Attempt on(String key, int thread) {
				return (section) -> work.run(key, section) != null;
			}

		};
	}

	/**
	 * A try-lock as a job would write it: {@link ConflictPolicy#SKIP} returns {@code null}
	 * when another caller holds the key. A bean of
	 * {@link LockablePathBenchmark.BenchmarkApplication}.
	 */
	public static class GuardedWork {

		@Lockable(resolver = "item", ttl = "30s", conflictPolicy = ConflictPolicy.SKIP)
		public Boolean run(String item, Runnable section) {
			section.run();
			return Boolean.TRUE;
		}

	}

}
