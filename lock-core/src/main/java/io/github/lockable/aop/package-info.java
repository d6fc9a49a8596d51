/**
 * The advice that runs {@link io.github.lockable.Lockable} methods under a lock, the
 * startup check of their declarations and their ahead-of-time hints, all fed by one
 * attribute source that reads the annotation.
 * <p>
 * Internal: the few public types here are public only for Lockable's auto-configuration
 * and Actuator endpoint in other packages; they are no API and may change in any release.
 * Use the root package {@code io.github.lockable} instead.
 */
@NullMarked
package io.github.lockable.aop;

import org.jspecify.annotations.NullMarked;
