package io.github.lockable.aop;

import org.aopalliance.intercept.MethodInvocation;

import io.github.lockable.InvalidLockKeyException;

/**
 * The frame of the asynchronous kinds: an invalid key is not thrown at the caller but
 * signalled the way the kind signals errors, and the lock is taken without blocking.
 */
abstract class AsynchronousLocking {

	final LockingSupport support;

	AsynchronousLocking(LockingSupport support) {
		this.support = support;
	}

	final Object invoke(MethodInvocation invocation, LockableMethod method) {
		String key;
		try {
			key = this.support.key(invocation, method);
		}
		catch (InvalidLockKeyException ex) {
			return failed(ex);
		}
		return lock(invocation, method, key);
	}

	/** The kind's result for a call refused before the store was asked. */
	abstract Object failed(RuntimeException ex);

	/** The kind's result for a call with a valid key. */
	abstract Object lock(MethodInvocation invocation, LockableMethod method, String key);

}
