package io.github.lockable.core;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockHandle;

/**
 * Why a lock was found gone, for the warnings of a release and of a renewal: the one place
 * that decides whether the TTL is to blame. It is only when the TTL ran out on this JVM's
 * monotonic clock, counted from before the acquire or the last extension was sent; a lock
 * gone earlier was taken away, and blaming the TTL would send the operator to raise it
 * while the real cause (eviction, a flush, a failover) goes on.
 */
final class LockLoss {

	private static final String TAKEN_AWAY = "deleted or force-released, evicted, flushed (FLUSHDB/FLUSHALL), "
			+ "or lost in a failover or a restart without persistence";

	private LockLoss() {
	}

	/**
	 * What a release that found its lock gone says after the key.
	 * @param handle the lost lock
	 * @param storeCause what the store knows can take locks away early, or {@code null}
	 * @return such as {@code expired before release: TTL shorter than the work (held 31002ms, TTL 30000ms)}
	 */
	static String atRelease(LockHandle handle, @Nullable String storeCause) {
		if (handle.isExpired()) {
			return "expired before release: TTL shorter than the work " + times(handle);
		}
		return "disappeared before its TTL " + times(handle) + ", before release: " + TAKEN_AWAY
				+ storeCause(storeCause);
	}

	/**
	 * What a renewal that found its lock gone says after the key.
	 * @param handle the lost lock
	 * @param storeCause what the store knows can take locks away early, or {@code null}
	 * @return such as {@code expired before a renewal came (held 31002ms, TTL 30000ms): ...}
	 */
	static String atRenewal(LockHandle handle, @Nullable String storeCause) {
		if (handle.isExpired()) {
			return "expired before a renewal came " + times(handle)
					+ ": the renewal was late, the machine or the store too slow for this TTL";
		}
		return "disappeared before its TTL " + times(handle) + ", before a renewal: " + TAKEN_AWAY
				+ storeCause(storeCause);
	}

	private static String times(LockHandle handle) {
		return "(held " + handle.elapsed().toMillis() + "ms, TTL " + handle.lease().ttl().toMillis() + "ms)";
	}

	private static String storeCause(@Nullable String storeCause) {
		return (storeCause != null) ? "; " + storeCause : "";
	}

}
