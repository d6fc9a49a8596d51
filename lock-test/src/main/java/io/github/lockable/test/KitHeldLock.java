package io.github.lockable.test;

import java.time.Duration;
import java.util.List;

import io.github.lockable.HeldLock;
import io.github.lockable.store.LockHandle;

/**
 * A key the {@link LockableTestKit} holds, as another caller would: closing it releases
 * the lock.
 */
final class KitHeldLock implements HeldLock {

	private final String key;

	private final LockHandle handle;

	KitHeldLock(String key, LockHandle handle) {
		this.key = key;
		this.handle = handle;
	}

	@Override
	public List<String> keys() {
		return List.of(this.key);
	}

	@Override
	public long fencingToken() {
		return Stages.join(this.handle.fencingToken());
	}

	@Override
	public long fencingToken(String key) {
		if (!this.key.equals(key)) {
			throw new IllegalArgumentException("This lock holds " + this.key + " only");
		}
		return fencingToken();
	}

	@Override
	public boolean isHeld() {
		return !this.handle.isReleased() && !this.handle.isExpired();
	}

	@Override
	public boolean extend(Duration ttl) {
		return Stages.join(this.handle.extend(ttl));
	}

	@Override
	public void close() {
		Stages.join(this.handle.release());
	}

	@Override
	public String toString() {
		return "HeldLock[" + this.key + "] held by LockableTestKit";
	}

}
