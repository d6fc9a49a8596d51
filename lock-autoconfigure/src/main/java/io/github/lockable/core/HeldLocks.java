package io.github.lockable.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;

import org.jspecify.annotations.Nullable;

/**
 * The locks this instance holds now: every lock the {@link LockManager} granted and has
 * not yet released. Adding and removing cost one concurrent map operation, so that the
 * locking path stays as fast as before; the work is done by {@link #snapshot()}, which
 * reports key and timing only, never the token.
 */
public final class HeldLocks {

	/** Each held lock with the metrics its release reports to. */
	private final Map<LockHandle, LockMetrics> handles = new ConcurrentHashMap<>();

	void add(LockHandle handle, LockMetrics metrics) {
		this.handles.put(handle, metrics);
	}

	/**
	 * Forgets a lock.
	 * @return the metrics it was acquired with, or {@code null} when it was not held
	 */
	@Nullable
	LockMetrics remove(LockHandle handle) {
		return this.handles.remove(handle);
	}

	/**
	 * The locks held now, oldest first. A handle released without the lock manager is
	 * left out and forgotten.
	 * @return a snapshot of the held locks
	 */
	public List<HeldLockInfo> snapshot() {
		List<HeldLockInfo> held = new ArrayList<>(this.handles.size());
		for (LockHandle handle : this.handles.keySet()) {
			if (handle.isReleased()) {
				this.handles.remove(handle);
				continue;
			}
			held.add(HeldLockInfo.of(handle));
		}
		held.sort(Comparator.comparing(HeldLockInfo::acquiredAt).thenComparing(HeldLockInfo::key));
		return List.copyOf(held);
	}

	/**
	 * One lock this instance holds. It has no token: the token proves ownership to the
	 * store and must stay with the holder.
	 *
	 * @param key the full lock key
	 * @param acquiredAt wall-clock time of the acquisition
	 * @param age how long the lock has been held, on the monotonic clock
	 * @param ttl the TTL the lock was acquired with
	 * @param ttlLeft the TTL minus the age, never negative; a renewed lock has more
	 */
	public record HeldLockInfo(String key, Instant acquiredAt, Duration age, Duration ttl, Duration ttlLeft) {

		static HeldLockInfo of(LockHandle handle) {
			LockLease lease = handle.lease();
			Duration age = handle.elapsed();
			Duration left = lease.ttl().minus(age);
			return new HeldLockInfo(lease.key(), lease.acquiredAt(), age, lease.ttl(),
					left.isNegative() ? Duration.ZERO : left);
		}

	}

}
