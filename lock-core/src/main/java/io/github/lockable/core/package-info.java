/**
 * Lockable's engine: the advice and its one lock flow, which {@code LockTemplate} shares
 * (key rules, the store call, what an acquire result means, the log lines, observations,
 * meters and outage throttle, the held lock with its renewal, the release with its TTL
 * warnings), and the {@code lockable} Actuator endpoint. It knows the store SPI and the
 * {@code observation} API, never a concrete store.
 * <p>
 * Internal, apart from two types: {@link io.github.lockable.core.LockableCore}, the one way
 * in for Lockable's auto-configuration and test kit, and
 * {@link io.github.lockable.core.LockableEndpoint}, the endpoint Actuator discovers. Neither
 * is meant for applications, which use {@code LockTemplate} and {@code @Lockable} from
 * {@code io.github.lockable}.
 */
@NullMarked
package io.github.lockable.core;

import org.jspecify.annotations.NullMarked;
