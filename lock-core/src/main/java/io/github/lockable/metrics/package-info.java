/**
 * Lock metrics on Micrometer.
 * <p>
 * Internal: public only for Lockable's auto-configuration. The meters' names and tags are
 * documented; these types are no API.
 */
@NullMarked
package io.github.lockable.metrics;

import org.jspecify.annotations.NullMarked;
