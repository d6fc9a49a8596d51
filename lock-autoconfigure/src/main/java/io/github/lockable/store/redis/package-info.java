/**
 * The Redis lock store, on the application's Lettuce connection.
 */
@NullMarked
package io.github.lockable.store.redis;

import org.jspecify.annotations.NullMarked;
