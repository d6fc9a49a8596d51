/**
 * Micrometer observations of {@code @Lockable} calls: one around the wait and acquire,
 * one around the work that runs under the lock, with conventions a user can replace.
 */
@NullMarked
package io.github.lockable.observation;

import org.jspecify.annotations.NullMarked;
