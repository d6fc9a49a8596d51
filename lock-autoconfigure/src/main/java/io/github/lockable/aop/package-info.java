/**
 * The advice that runs {@link io.github.lockable.Lockable} methods under a lock, and the
 * startup check of their declarations.
 */
@NonNullApi
package io.github.lockable.aop;

import org.springframework.lang.NonNullApi;
