/**
 * The in-memory lock store: one JVM.
 * <p>
 * The store class is public so that an application can construct or replace its store;
 * every other public type here exists for Lockable's auto-configuration and health
 * indicators and is internal: it may change in any release.
 */
@NullMarked
package io.github.lockable.store.memory;

import org.jspecify.annotations.NullMarked;
