/**
 * What Lockable shows to Spring Boot Actuator: the {@code lockable} endpoint with the
 * {@code @Lockable} methods, the store and the locks this instance holds (the store's
 * health is configured in {@code autoconfigure}, one class per Boot line).
 * <p>
 * Internal: the endpoint's class is public only for Lockable's auto-configuration; what
 * users rely on is the endpoint's JSON, not these types, which may change in any release.
 */
@NullMarked
package io.github.lockable.actuate;

import org.jspecify.annotations.NullMarked;
