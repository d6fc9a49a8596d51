/**
 * The Redis lock store, on the application's Lettuce connection.
 */
@NonNullApi
package io.github.lockable.store.redis;

import org.springframework.lang.NonNullApi;
