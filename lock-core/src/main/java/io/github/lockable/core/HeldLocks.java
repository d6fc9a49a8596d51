package io.github.lockable.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;

/**
 * The locks this instance holds now: every lock the {@link LockManager} granted and has
 * not yet released, from the moment somebody asked for them (see
 * {@link LockManager#heldLocks()}). Until then nothing is recorded: every thread that
 * takes a lock would update the one shared map, a cost an application that never reads it
 * should not pay. Adding and removing cost one concurrent map operation; the work is done
 * by {@link #snapshot()}, which reports key and timing only, never the token.
 */
final class HeldLocks {

	private final Set<LockHandle> handles = ConcurrentHashMap.newKeySet();

	private volatile boolean recording;

	void startRecording() {
		this.recording = true;
	}

	void add(LockHandle handle) {
		if (this.recording) {
			this.handles.add(handle);
		}
	}

	void remove(LockHandle handle) {
		if (this.recording) {
			this.handles.remove(handle);
		}
	}

	/**
	 * The locks held now, oldest first. A handle released without the lock manager is
	 * left out and forgotten.
	 * @return a snapshot of the held locks
	 */
	public List<HeldLockInfo> snapshot() {
		List<HeldLockInfo> held = new ArrayList<>(this.handles.size());
		for (LockHandle handle : this.handles) {
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
