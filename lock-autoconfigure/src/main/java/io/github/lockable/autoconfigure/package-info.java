/**
 * Auto-configuration of Lockable: the one place that knows every part and wires them.
 */
@NullMarked
package io.github.lockable.autoconfigure;

import org.jspecify.annotations.NullMarked;
