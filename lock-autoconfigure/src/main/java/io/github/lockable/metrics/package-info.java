/**
 * Lock metrics on Micrometer.
 */
@NullMarked
package io.github.lockable.metrics;

import org.jspecify.annotations.NullMarked;
