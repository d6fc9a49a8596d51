/**
 * The advice that runs {@link io.github.lockable.Lockable} methods under a lock, and the
 * startup check of their declarations.
 */
@NullMarked
package io.github.lockable.aop;

import org.jspecify.annotations.NullMarked;
