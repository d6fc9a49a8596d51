package io.github.lockable.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.HeldLock;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.core.LockableCore;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.StoredLock;

/**
 * The {@link LockableTestKit} of one test context: holds keys on the context's store
 * directly, past the lock flow, so that its own acquires are no events; resets with the
 * store's listing and force-release, the operators' way.
 */
final class DefaultLockableTestKit implements LockableTestKit {

	private static final Logger logger = LoggerFactory.getLogger(DefaultLockableTestKit.class);

	/** Long enough for any test; the reset after the test method releases it anyway. */
	static final Duration HOLD_TTL = Duration.ofMinutes(30);

	/** A listing's most locks; a reset lists again while the listing was truncated. */
	private static final int LISTING_LIMIT = 1000;

	private static final int MAX_LISTINGS = 1000;

	private static final LockHolder HOLDER = new LockHolder("LockableTestKit", ProcessHandle.current().pid(),
			"LockableTestKit.hold(String)");

	private final LockableCore core;

	private final LockEventRecorder recorder;

	private final AtomicBoolean resetFailureLogged = new AtomicBoolean();

	DefaultLockableTestKit(LockableCore core, LockEventRecorder recorder) {
		this.core = core;
		this.recorder = recorder;
	}

	@Override
	public HeldLock hold(String key) {
		String problem = this.core.keyProblem(key);
		if (problem != null) {
			throw new InvalidLockKeyException("The lock key given to LockableTestKit.hold " + problem);
		}
		String fullKey = this.core.fullKey(key);
		AcquireResult result = Stages.join(store().acquire(new LockRequest(fullKey, HOLD_TTL, true, HOLDER)));
		if (result instanceof AcquireResult.Acquired acquired) {
			return new KitHeldLock(key, acquired.handle());
		}
		if (result instanceof AcquireResult.Failed failed) {
			throw failed.cause();
		}
		throw new IllegalStateException("The key " + key + " is held already; close the HeldLock that holds it, "
				+ "or call LockableTestKit.reset() first");
	}

	@Override
	public List<LockEvent> events() {
		return this.recorder.events();
	}

	@Override
	public void reset() {
		try {
			releaseAll();
		}
		catch (RuntimeException ex) {
			if (this.resetFailureLogged.compareAndSet(false, true)) {
				logger.warn("LockableTestKit could not release the locks under {} in the {} store between tests, so a "
						+ "lock may outlive its test: {}", this.core.keyPrefix(), store().name(), ex.toString());
			}
		}
		finally {
			this.recorder.clear();
		}
	}

	private void releaseAll() {
		for (int listings = 0; listings < MAX_LISTINGS; listings++) {
			LockListing listing = Stages.join(store().locks(this.core.keyPrefix(), LISTING_LIMIT));
			for (StoredLock lock : listing.locks()) {
				Stages.join(store().forceRelease(lock.key()));
			}
			if (!listing.truncated() || listing.locks().isEmpty()) {
				return;
			}
		}
	}

	private LockStore store() {
		return this.core.store();
	}

}
