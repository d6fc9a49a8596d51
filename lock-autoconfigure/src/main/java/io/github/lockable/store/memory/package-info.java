/**
 * The in-memory lock store: one JVM.
 */
@NonNullApi
package io.github.lockable.store.memory;

import org.springframework.lang.NonNullApi;
