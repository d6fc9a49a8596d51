/**
 * The Redis lock store, on the application's Lettuce connection.
 * <p>
 * Only the store class is public, so that an application can construct or replace its
 * store; everything else here is package-private.
 */
@NullMarked
package io.github.lockable.store.redis;

import org.jspecify.annotations.NullMarked;
