/**
 * Ahead-of-time processing: the hints a native image needs for {@code @Lockable} methods.
 */
@NullMarked
package io.github.lockable.aot;

import org.jspecify.annotations.NullMarked;
