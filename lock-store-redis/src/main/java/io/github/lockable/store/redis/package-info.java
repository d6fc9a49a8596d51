/**
 * The Redis lock store, on the application's Lettuce connection.
 * <p>
 * The store class is public so that an application can construct or replace its store;
 * every other public type here exists for Lockable's auto-configuration and health
 * indicators and is internal: it may change in any release.
 */
@NullMarked
package io.github.lockable.store.redis;

import org.jspecify.annotations.NullMarked;
