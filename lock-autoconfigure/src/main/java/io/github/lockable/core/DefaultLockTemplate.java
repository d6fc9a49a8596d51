package io.github.lockable.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.HeldLock;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockContext;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.LockTemplate;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;

/**
 * The {@link LockTemplate} on a {@link LockManager}: key rules and prefix from
 * {@link LockKeys}, waiting from the manager, several keys in one global order.
 */
public final class DefaultLockTemplate implements LockTemplate {

	private static final Logger logger = LoggerFactory.getLogger(DefaultLockTemplate.class);

	private final LockManager manager;

	private final LockKeys keys;

	private final LockRenewals renewals;

	private final ConflictPolicy defaultPolicy;

	private final boolean proceedOnStoreFailure;

	/**
	 * Creates the template.
	 * @param manager takes and gives back the locks
	 * @param keys the key rule and prefix
	 * @param renewals renews the locks of {@link #tryLockRenewing}
	 * @param defaultPolicy what {@link ConflictPolicy#DEFAULT} means
	 * @param proceedOnStoreFailure whether {@code execute} runs its action unlocked when the
	 * store does not answer ({@code lockable.store-failure=proceed})
	 */
	public DefaultLockTemplate(LockManager manager, LockKeys keys, LockRenewals renewals, ConflictPolicy defaultPolicy,
			boolean proceedOnStoreFailure) {
		this.manager = Objects.requireNonNull(manager, "manager must not be null");
		this.keys = Objects.requireNonNull(keys, "keys must not be null");
		this.renewals = Objects.requireNonNull(renewals, "renewals must not be null");
		if (defaultPolicy == ConflictPolicy.DEFAULT) {
			throw new IllegalArgumentException("The default conflict policy cannot be DEFAULT");
		}
		this.defaultPolicy = defaultPolicy;
		this.proceedOnStoreFailure = proceedOnStoreFailure;
	}

	@Override
	public Optional<HeldLock> tryLock(String key, Duration ttl) {
		return tryLock(key, ttl, Duration.ZERO);
	}

	@Override
	public Optional<HeldLock> tryLock(String key, Duration ttl, Duration waitTime) {
		AcquireResult result = this.manager.acquire(fullKey(key), ttl, waitTime);
		if (result instanceof AcquireResult.Acquired acquired) {
			return Optional.of(new DefaultHeldLock(this.manager, List.of(key), List.of(acquired.handle())));
		}
		throwIfFailed(result);
		return Optional.empty();
	}

	@Override
	public Optional<HeldLock> tryLockRenewing(String key, Duration ttl, Duration waitTime) {
		Optional<HeldLock> lock = tryLock(key, ttl, waitTime);
		lock.ifPresent((held) -> {
			DefaultHeldLock renewed = (DefaultHeldLock) held;
			LockHandle handle = renewed.handles().get(0);
			renewed.renewWith(this.renewals.start(handle, ttl, () -> {
				renewed.markLost();
				logger.warn("Lock {} was lost after {}ms while its holder still runs: it {}; another holder may "
						+ "run at the same time", handle.lease().key(), handle.elapsed().toMillis(),
						this.manager.renewalLossCause(handle));
			}));
		});
		return lock;
	}

	@Override
	public Optional<HeldLock> tryLockAll(Collection<String> keys, Duration ttl, Duration waitTime) {
		Objects.requireNonNull(keys, "keys must not be null");
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("keys must not be empty");
		}
		// Every key is checked before the store is asked; the full names give the one order.
		List<String> given = List.copyOf(new LinkedHashSet<>(keys));
		Map<String, String> byFullKey = new TreeMap<>();
		for (String key : given) {
			byFullKey.put(fullKey(key), key);
		}
		long deadline = System.nanoTime() + waitTime.toNanos();
		// In the order taken, so that a failure releases them in reverse.
		Map<String, LockHandle> taken = new LinkedHashMap<>();
		for (Map.Entry<String, String> entry : byFullKey.entrySet()) {
			Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
			AcquireResult result = this.manager.acquire(entry.getKey(), ttl, remaining);
			if (!(result instanceof AcquireResult.Acquired acquired)) {
				List<LockHandle> handles = new ArrayList<>(taken.values());
				Collections.reverse(handles);
				handles.forEach(this.manager::release);
				throwIfFailed(result);
				return Optional.empty();
			}
			taken.put(entry.getValue(), acquired.handle());
		}
		return Optional.of(new DefaultHeldLock(this.manager, given, given.stream().map(taken::get).toList()));
	}

	@Override
	public <T extends @Nullable Object> @Nullable T execute(String key, Duration ttl, Duration waitTime,
			ConflictPolicy policy, Supplier<T> action) {
		ConflictPolicy effective = (policy == ConflictPolicy.DEFAULT) ? this.defaultPolicy : policy;
		AcquireResult result = this.manager.acquire(fullKey(key), ttl, waitTime);
		if (result instanceof AcquireResult.Acquired acquired) {
			try (HeldLock lock = new DefaultHeldLock(this.manager, List.of(key), List.of(acquired.handle()));
					LockContext.Scope scope = LockContext.bind(lock)) {
				return action.get();
			}
		}
		if (result instanceof AcquireResult.Held held) {
			if (effective == ConflictPolicy.SKIP) {
				return null;
			}
			throw new LockConflictException(effective, (held.remainingTtl() != null) ? held.remainingTtl() : ttl);
		}
		if (!this.proceedOnStoreFailure) {
			throw unavailable((AcquireResult.Failed) result);
		}
		logger.error("Lock store {} failed to acquire {}; the action runs without a lock "
				+ "(lockable.store-failure=proceed)", this.manager.store().name(), key,
				((AcquireResult.Failed) result).cause());
		return action.get();
	}

	private static void throwIfFailed(AcquireResult result) {
		if (result instanceof AcquireResult.Failed failed) {
			throw unavailable(failed);
		}
	}

	private String fullKey(String key) {
		String problem = this.keys.problem(key);
		if (problem != null) {
			throw new InvalidLockKeyException("The lock key given to LockTemplate " + problem);
		}
		return this.keys.withPrefix(key);
	}

	private static LockStoreUnavailableException unavailable(AcquireResult.Failed failed) {
		return new LockStoreUnavailableException("Lock store unavailable; the lock was not taken", failed.cause());
	}

}
