/**
 * The lock manager and the one lock flow that the advice and {@code LockTemplate} share: key
 * rules, the store call, what an acquire result means, the log lines, observations and
 * outage throttle, the held lock with its renewal, and the release with its TTL warnings
 * and metrics hooks. It knows the store SPI and the {@code observation} API, never the
 * advice or a concrete store.
 * <p>
 * Internal: these types are public only for Lockable's advice, auto-configuration, metrics
 * and endpoint in other packages. They are no API and may change in any release; use
 * {@code LockTemplate} and {@code @Lockable} from {@code io.github.lockable}.
 */
@NullMarked
package io.github.lockable.core;

import org.jspecify.annotations.NullMarked;
