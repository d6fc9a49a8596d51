package io.github.lockable.core;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.HeldLock;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockContext;
import io.github.lockable.LockTemplate;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockHandle;

import org.springframework.util.ReflectionUtils;

/**
 * The {@link LockTemplate} on the {@link LockFlow} the advice uses, so that a template
 * caller gets the same log lines, meters (lock name {@value LockMetrics#TEMPLATE_LOCK}),
 * observations and store-outage throttle as a {@code @Lockable} method: key rules and
 * prefix from {@link LockKeys}, several keys in one global order.
 */
final class DefaultLockTemplate implements LockTemplate {

	private static final Method TRY_LOCK = templateMethod("tryLock", String.class, Duration.class, Duration.class);

	private static final Method TRY_LOCK_RENEWING = templateMethod("tryLockRenewing", String.class, Duration.class,
			Duration.class);

	private static final Method TRY_LOCK_ALL = templateMethod("tryLockAll", Collection.class, Duration.class,
			Duration.class);

	private static final Method EXECUTE = templateMethod("execute", String.class, Duration.class, Duration.class,
			ConflictPolicy.class, Supplier.class);

	private final LockFlow flow;

	private final LockKeys keys;

	private final ConflictPolicy defaultPolicy;

	private final OutageLogThrottle storeOutage = new OutageLogThrottle(OutageLogThrottle.DEFAULT_SUMMARY_INTERVAL);

	/** The events and holder of {@value LockMetrics#TEMPLATE_LOCK}, asked for on the first call. */
	private volatile @Nullable Shared shared;

	/**
	 * Creates the template on its own flow, without observations.
	 * @param manager takes and gives back the locks
	 * @param keys the key rule and prefix
	 * @param renewals renews the locks of {@link #tryLockRenewing}
	 * @param defaultPolicy what {@link ConflictPolicy#DEFAULT} means
	 * @param proceedOnStoreFailure whether {@code execute} runs its action unlocked when the
	 * store does not answer ({@code lockable.store-failure=proceed})
	 */
	public DefaultLockTemplate(LockManager manager, LockKeys keys, LockRenewals renewals, ConflictPolicy defaultPolicy,
			boolean proceedOnStoreFailure) {
		this(new LockFlow(() -> manager, () -> proceedOnStoreFailure ? StoreFailurePolicy.PROCEED
				: StoreFailurePolicy.FAIL, () -> Runnable::run, () -> renewals,
				() -> new LockObservations.Settings(ObservationRegistry.NOOP, null, null)), keys, defaultPolicy);
		Objects.requireNonNull(manager, "manager must not be null");
		Objects.requireNonNull(renewals, "renewals must not be null");
	}

	/**
	 * Creates the template.
	 * @param flow the flow the advice uses; its store-failure policy applies to {@code execute}
	 * @param keys the key rule and prefix
	 * @param defaultPolicy what {@link ConflictPolicy#DEFAULT} means
	 */
	public DefaultLockTemplate(LockFlow flow, LockKeys keys, ConflictPolicy defaultPolicy) {
		this.flow = Objects.requireNonNull(flow, "flow must not be null");
		this.keys = Objects.requireNonNull(keys, "keys must not be null");
		if (defaultPolicy == ConflictPolicy.DEFAULT) {
			throw new IllegalArgumentException("The default conflict policy cannot be DEFAULT");
		}
		this.defaultPolicy = defaultPolicy;
	}

	@Override
	public Optional<HeldLock> tryLock(String key, Duration ttl) {
		return tryLock(key, ttl, Duration.ZERO);
	}

	@Override
	public Optional<HeldLock> tryLock(String key, Duration ttl, Duration waitTime) {
		return tryLock(key, new TemplateOperation(this, TRY_LOCK, terms(ttl, waitTime), ConflictPolicy.CONFLICT,
				false));
	}

	@Override
	public Optional<HeldLock> tryLockRenewing(String key, Duration ttl, Duration waitTime) {
		return tryLock(key,
				new TemplateOperation(this, TRY_LOCK_RENEWING, terms(ttl, waitTime), ConflictPolicy.CONFLICT,
						true));
	}

	private Optional<HeldLock> tryLock(String key, TemplateOperation operation) {
		String fullKey = fullKey(key, operation);
		Decision decision = this.flow.acquire(operation, fullKey, StoreFailurePolicy.FAIL);
		if (decision instanceof Decision.RunLocked granted) {
			return Optional.of(this.flow.hold(operation, fullKey, granted));
		}
		throwIfUnavailable(decision);
		return Optional.empty();
	}

	@Override
	public Optional<HeldLock> tryLockAll(Collection<String> keys, Duration ttl, Duration waitTime) {
		Objects.requireNonNull(keys, "keys must not be null");
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("keys must not be empty");
		}
		TemplateOperation all = new TemplateOperation(this, TRY_LOCK_ALL, terms(ttl, waitTime),
				ConflictPolicy.CONFLICT, false);
		// Every key is checked before the store is asked; the full names give the one order.
		List<String> given = List.copyOf(new LinkedHashSet<>(keys));
		Map<String, String> byFullKey = new TreeMap<>();
		for (String key : given) {
			byFullKey.put(fullKey(key, all), key);
		}
		long deadline = System.nanoTime() + waitTime.toNanos();
		List<String> parts = new ArrayList<>(given.size());
		List<LockHandle> taken = new ArrayList<>(given.size());
		for (Map.Entry<String, String> entry : byFullKey.entrySet()) {
			Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
			Decision decision = this.flow.acquire(new TemplateOperation(this, TRY_LOCK_ALL, terms(ttl, remaining),
					ConflictPolicy.CONFLICT, false), entry.getKey(), StoreFailurePolicy.FAIL);
			if (!(decision instanceof Decision.RunLocked granted)) {
				if (!taken.isEmpty()) {
					// Released in reverse order of taking.
					new DefaultHeldLock(this.flow, all, parts, taken, Observation.NOOP).finish(null, false);
				}
				throwIfUnavailable(decision);
				return Optional.empty();
			}
			parts.add(entry.getValue());
			taken.add(granted.handle());
		}
		List<LockHandle> handles = given.stream().map((key) -> taken.get(parts.indexOf(key))).toList();
		return Optional.of(new DefaultHeldLock(this.flow, all, given, handles, Observation.NOOP));
	}

	@Override
	public <T extends @Nullable Object> @Nullable T execute(String key, Duration ttl, Duration waitTime,
			ConflictPolicy policy, Supplier<T> action) {
		ConflictPolicy effective = (policy == ConflictPolicy.DEFAULT) ? this.defaultPolicy : policy;
		TemplateOperation operation = new TemplateOperation(this, EXECUTE, terms(ttl, waitTime), effective, false);
		String fullKey = fullKey(key, operation);
		Decision decision = this.flow.acquire(operation, fullKey);
		if (decision instanceof Decision.RunLocked granted) {
			DefaultHeldLock lock = this.flow.hold(operation, fullKey, granted);
			Throwable failure = null;
			try (LockContext.Scope scope = LockContext.bind(lock);
					Observation.Scope observed = LockObservations.openScope(lock.execution())) {
				return action.get();
			}
			catch (Throwable ex) {
				failure = ex;
				throw ex;
			}
			finally {
				lock.finish(failure, false);
			}
		}
		if (decision instanceof Decision.Refuse refuse) {
			throw refuse.exception();
		}
		if (decision == Decision.SKIP) {
			return null;
		}
		return action.get();
	}

	/** A refused try is empty, unless the store did not answer. */
	private static void throwIfUnavailable(Decision decision) {
		if (decision instanceof Decision.Refuse refuse && !(refuse.exception() instanceof LockConflictException)) {
			throw refuse.exception();
		}
	}

	/** The full key; a key that breaks the key rules is logged as the advice logs it, and thrown. */
	private String fullKey(String key, TemplateOperation operation) {
		String problem = this.keys.problem(key);
		if (problem != null) {
			InvalidLockKeyException invalid = new InvalidLockKeyException("The lock key given to LockTemplate " + problem);
			LockFlow.invalidKey(operation, invalid);
			throw invalid;
		}
		return this.keys.withPrefix(key);
	}

	LockKeys keys() {
		return this.keys;
	}

	OutageLogThrottle storeOutage() {
		return this.storeOutage;
	}

	/** The terms of one call, on the events every call of the template shares. */
	private LockTerms terms(Duration ttl, Duration waitTime) {
		Shared templateShared = shared();
		return new LockTerms(ttl, waitTime, templateShared.events(), templateShared.holder());
	}

	/** What every call of the template shares, from the lock manager, on first use. */
	private Shared shared() {
		Shared current = this.shared;
		if (current == null) {
			LockManager manager = this.flow.lockManager();
			current = new Shared(manager.events(LockMetrics.TEMPLATE_LOCK), manager.holder(LockMetrics.TEMPLATE_LOCK));
			this.shared = current;
		}
		return current;
	}

	private record Shared(LockEvents events, LockHolder holder) {
	}

	private static Method templateMethod(String name, Class<?>... parameterTypes) {
		Method method = ReflectionUtils.findMethod(LockTemplate.class, name, parameterTypes);
		if (method == null) {
			throw new IllegalStateException("LockTemplate has no method " + name);
		}
		return method;
	}

}
