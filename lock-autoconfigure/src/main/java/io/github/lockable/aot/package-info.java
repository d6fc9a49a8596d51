/**
 * Ahead-of-time processing: the hints a native image needs for {@code @Lockable} methods.
 */
@NonNullApi
package io.github.lockable.aot;

import org.springframework.lang.NonNullApi;
