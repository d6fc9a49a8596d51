/**
 * The lock manager: key rules, the store call, release with TTL warnings, and metrics
 * hooks. It knows the store SPI only.
 * <p>
 * Internal: the lock manager and its collaborators are public only for Lockable's advice,
 * auto-configuration, metrics and endpoint in other packages. They are no API and may change
 * in any release; use {@code LockTemplate} and {@code @Lockable} from {@code io.github.lockable}.
 */
@NullMarked
package io.github.lockable.core;

import org.jspecify.annotations.NullMarked;
