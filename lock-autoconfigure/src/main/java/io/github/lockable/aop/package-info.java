/**
 * The advice that runs {@link io.github.lockable.Lockable} methods under a lock, the
 * startup check of their declarations and their ahead-of-time hints, all fed by one
 * attribute source that reads the annotation.
 */
@NullMarked
package io.github.lockable.aop;

import org.jspecify.annotations.NullMarked;
