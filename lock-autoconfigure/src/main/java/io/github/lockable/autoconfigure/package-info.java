/**
 * Auto-configuration of Lockable: the one place that knows every part and wires them.
 */
@NonNullApi
package io.github.lockable.autoconfigure;

import org.springframework.lang.NonNullApi;
