/**
 * Lock metrics on Micrometer.
 */
@NonNullApi
package io.github.lockable.metrics;

import org.springframework.lang.NonNullApi;
