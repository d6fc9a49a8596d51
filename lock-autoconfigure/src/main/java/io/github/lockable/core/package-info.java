/**
 * The lock manager: key rules, the store call, release with TTL warnings, and metrics
 * hooks. It knows the store SPI only.
 */
@NullMarked
package io.github.lockable.core;

import org.jspecify.annotations.NullMarked;
