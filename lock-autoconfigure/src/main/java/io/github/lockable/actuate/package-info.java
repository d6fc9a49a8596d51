/**
 * What Lockable shows to Spring Boot Actuator: the {@code lockable} endpoint with the
 * {@code @Lockable} methods, the store and the locks this instance holds, and the health
 * of the file store's directory.
 */
@NonNullApi
package io.github.lockable.actuate;

import org.springframework.lang.NonNullApi;
