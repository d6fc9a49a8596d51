/**
 * What Lockable shows to Spring Boot Actuator: the {@code lockable} endpoint with the
 * {@code @Lockable} methods, the store and the locks this instance holds, and the health
 * of the file store's directory.
 */
@NullMarked
package io.github.lockable.actuate;

import org.jspecify.annotations.NullMarked;
