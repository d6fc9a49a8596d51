/**
 * The advice that runs {@link io.github.lockable.Lockable} methods under a lock, the
 * startup check of their declarations and their ahead-of-time hints, all fed by one
 * attribute source that reads the annotation.
 * <p>
 * Internal: {@link io.github.lockable.aop.LockableAdvice} is public only so that Lockable's
 * auto-configuration can build the package-private parts, and
 * {@link io.github.lockable.aop.LockableMethodDescriptor} only as what the Actuator endpoint
 * shows; neither is API and both may change in any release. Use the root package
 * {@code io.github.lockable} instead.
 */
@NullMarked
package io.github.lockable.aop;

import org.jspecify.annotations.NullMarked;
