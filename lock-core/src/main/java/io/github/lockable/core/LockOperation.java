package io.github.lockable.core;

import java.lang.reflect.Method;
import java.time.Duration;

import io.github.lockable.ConflictPolicy;

/**
 * What is run under a lock, as {@link LockFlow} decides, logs, meters and observes it: a
 * {@code @Lockable} method, worked out once at startup, or a {@link io.github.lockable.LockTemplate}
 * call. It names the lock by its static key or resolver, never by a resolved key.
 */
interface LockOperation {

	/**
	 * How the log names the caller.
	 * @return such as {@code Orders.pay(String)}, or {@value LockMetrics#TEMPLATE_LOCK}
	 */
	String description();

	/**
	 * The name metrics and observations know the lock by: the static key as declared, the
	 * resolver's bean name, or {@value LockMetrics#TEMPLATE_LOCK}.
	 * @return the lock name
	 */
	String lockName();

	/**
	 * The resource part of one of this operation's full keys, as {@link io.github.lockable.HeldLock#keys()} shows it.
	 * @param fullKey the prefixed key
	 * @return the key without its prefix
	 */
	String resourcePart(String fullKey);

	/**
	 * @return the lock's TTL
	 */
	Duration ttl();

	/**
	 * @return how long to wait for a held lock; zero tries once
	 */
	Duration waitTime();

	/**
	 * @return whether the lock is extended while the operation runs
	 */
	boolean renew();

	/**
	 * @return what a held lock means; never {@link ConflictPolicy#DEFAULT}
	 */
	ConflictPolicy conflictPolicy();

	/**
	 * @return the method the observations name ({@code code.function})
	 */
	Method method();

	/**
	 * @return the class the observations name ({@code code.namespace})
	 */
	Class<?> targetClass();

	/**
	 * @return decides which store failures of an outage the log shows; one per lock name
	 */
	OutageLogThrottle storeOutage();

	/**
	 * How the manager takes this operation's lock: its TTL, wait time and the events of
	 * its lock name, asked of the manager once and kept.
	 * @param manager the lock manager
	 * @return the terms to acquire and release on
	 */
	LockTerms terms(LockManager manager);

}
