/**
 * The file lock store: one host, several processes, no server.
 */
@NonNullApi
package io.github.lockable.store.file;

import org.springframework.lang.NonNullApi;
