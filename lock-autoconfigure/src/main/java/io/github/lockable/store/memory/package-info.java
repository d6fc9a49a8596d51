/**
 * The in-memory lock store: one JVM.
 */
@NullMarked
package io.github.lockable.store.memory;

import org.jspecify.annotations.NullMarked;
