package io.github.lockable.core;

import java.lang.reflect.Method;
import java.time.Duration;

import io.github.lockable.ConflictPolicy;

/**
 * One {@link io.github.lockable.LockTemplate} call as the {@link LockFlow} sees it: named
 * {@value LockMetrics#TEMPLATE_LOCK} in the log, the meters and the observations, since
 * its keys are the caller's data; the template's store-outage throttle and events are
 * shared by all its calls. Its terms are made with it, once per call, as the caller gives
 * the TTL and wait time of each call.
 */
record TemplateOperation(DefaultLockTemplate template, Method method, LockTerms terms, ConflictPolicy conflictPolicy,
		boolean renew) implements LockOperation {

	@Override
	public String description() {
		return LockMetrics.TEMPLATE_LOCK;
	}

	@Override
	public String lockName() {
		return LockMetrics.TEMPLATE_LOCK;
	}

	@Override
	public String resourcePart(String fullKey) {
		return this.template.keys().withoutPrefix(fullKey);
	}

	@Override
	public Class<?> targetClass() {
		return DefaultLockTemplate.class;
	}

	@Override
	public OutageLogThrottle storeOutage() {
		return this.template.storeOutage();
	}

	@Override
	public Duration ttl() {
		return this.terms.ttl();
	}

	@Override
	public Duration waitTime() {
		return this.terms.waitTime();
	}

	@Override
	public LockTerms terms(LockManager manager) {
		return this.terms;
	}

}
