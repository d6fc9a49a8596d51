/**
 * The web adapter: Lockable's exceptions as {@code application/problem+json}.
 * <p>
 * {@code LockableExceptionHandler} is public so that an application can replace it with a
 * bean of its own of that type; nothing else here is API.
 */
@NullMarked
package io.github.lockable.web;

import org.jspecify.annotations.NullMarked;
