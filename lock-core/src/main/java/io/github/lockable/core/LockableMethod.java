package io.github.lockable.core;

import java.lang.reflect.Method;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockKeyResolver;

/**
 * Everything the advice needs about one {@code @Lockable} method, worked out once at
 * startup: the per-call path does no annotation lookup, placeholder parsing or bean lookup.
 */
final class LockableMethod implements LockOperation {

	private final Method method;

	private final Class<?> targetClass;

	private final String description;

	private final @Nullable String staticKey;

	/** The static key without its prefix, worked out once. */
	private final @Nullable String staticPart;

	private final @Nullable LockKeyResolver resolver;

	private final @Nullable String resolverName;

	private final LockKeys keys;

	private final Duration ttl;

	private final Duration waitTime;

	private final boolean renew;

	private final ConflictPolicy conflictPolicy;

	private final ReturnKind returnKind;

	private final String @Nullable [] parameterNames;

	private final OutageLogThrottle storeOutage = new OutageLogThrottle(OutageLogThrottle.DEFAULT_SUMMARY_INTERVAL);

	/** How this method takes its lock, with its events; worked out on its first call. */
	private volatile @Nullable LockTerms terms;

	LockableMethod(Method method, Class<?> targetClass, String description, @Nullable String staticKey,
			@Nullable LockKeyResolver resolver, @Nullable String resolverName, LockKeys keys, Duration ttl,
			Duration waitTime, boolean renew, ConflictPolicy conflictPolicy, ReturnKind returnKind,
			String @Nullable [] parameterNames) {
		this.method = method;
		this.targetClass = targetClass;
		this.description = description;
		this.staticKey = staticKey;
		this.resolver = resolver;
		this.staticPart = (staticKey != null) ? keys.withoutPrefix(staticKey) : null;
		this.resolverName = resolverName;
		this.keys = keys;
		this.ttl = ttl;
		this.waitTime = waitTime;
		this.renew = renew;
		this.conflictPolicy = conflictPolicy;
		this.returnKind = returnKind;
		this.parameterNames = parameterNames;
	}

	/**
	 * The key of one call: the static key, or the resolver's part, checked and prefixed.
	 * @throws InvalidLockKeyException if the resolver's part breaks the key rules
	 */
	String key(Object target, @Nullable Object[] arguments) {
		if (this.staticKey != null) {
			return this.staticKey;
		}
		String part = this.resolver.resolve(new MethodLockInvocation(this, target, arguments));
		String problem = this.keys.problem(part);
		if (problem != null) {
			throw new InvalidLockKeyException(
					"The lock key from resolver '" + this.resolverName + "' for " + this.description + " " + problem);
		}
		return this.keys.withPrefix(part);
	}

	/** The resource part of a full key of this method, as {@code LockContext} shows it. */
	@Override
	public String resourcePart(String fullKey) {
		return (this.staticPart != null) ? this.staticPart : this.keys.withoutPrefix(fullKey);
	}

	@Override
	public Method method() {
		return this.method;
	}

	/** The user class that declares or inherits the method. */
	@Override
	public Class<?> targetClass() {
		return this.targetClass;
	}

	/**
	 * The name metrics and observations know the lock by: the static key as declared, or
	 * the resolver's bean name; never a resolved key, which is the caller's data.
	 */
	@Override
	public String lockName() {
		return (this.staticPart != null) ? this.staticPart : this.resolverName;
	}

	/**
	 * The terms of this method's lock, with the events of its lock name asked of the lock
	 * manager on the first call and kept: no meter is looked up per call. Two first calls
	 * at once may both ask, which registers nothing twice.
	 */
	@Override
	public LockTerms terms(LockManager manager) {
		LockTerms lockTerms = this.terms;
		if (lockTerms == null) {
			lockTerms = manager.terms(lockName(), description(), ttl(), waitTime());
			this.terms = lockTerms;
		}
		return lockTerms;
	}

	@Override
	public String description() {
		return this.description;
	}

	@Override
	public Duration ttl() {
		return this.ttl;
	}

	/** Zero when the annotation does not wait. */
	@Override
	public Duration waitTime() {
		return this.waitTime;
	}

	/** Whether the lock is extended while the method runs. */
	@Override
	public boolean renew() {
		return this.renew;
	}

	@Override
	public ConflictPolicy conflictPolicy() {
		return this.conflictPolicy;
	}

	ReturnKind returnKind() {
		return this.returnKind;
	}

	String @Nullable [] parameterNames() {
		return this.parameterNames;
	}

	/** What the {@code lockable} endpoint shows: the settings, no argument value. */
	LockableMethodDescriptor descriptor() {
		return new LockableMethodDescriptor(this.description, this.staticKey,
				(this.resolver != null) ? this.resolverName : null, this.ttl,
				this.waitTime, this.conflictPolicy, this.renew, this.returnKind.name());
	}

	@Override
	public OutageLogThrottle storeOutage() {
		return this.storeOutage;
	}

	@Override
	public String toString() {
		return this.description;
	}

}
