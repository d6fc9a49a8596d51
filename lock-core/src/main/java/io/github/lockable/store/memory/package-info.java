/**
 * The in-memory lock store: one JVM.
 * <p>
 * The store class, the only type here, is public so that an application or a test can
 * construct or replace its store.
 */
@NullMarked
package io.github.lockable.store.memory;

import org.jspecify.annotations.NullMarked;
