/**
 * Auto-configuration of Lockable: the one place that knows every part and wires them.
 * <p>
 * Internal except the auto-configuration classes named in {@code AutoConfiguration.imports}
 * (for {@code exclude}) and {@code LockableProperties}; every other class is package-private
 * wiring.
 */
@NullMarked
package io.github.lockable.autoconfigure;

import org.jspecify.annotations.NullMarked;
