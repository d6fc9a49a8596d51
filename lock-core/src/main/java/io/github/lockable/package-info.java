/**
 * Lockable's public API: {@link io.github.lockable.Lockable} on a method, a
 * {@link io.github.lockable.LockKeyResolver} bean per kind of key, and the exceptions a
 * locked method throws instead of running.
 */
@NullMarked
package io.github.lockable;

import org.jspecify.annotations.NullMarked;
