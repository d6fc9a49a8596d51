/**
 * The file lock store: one host, several processes, no server.
 */
@NullMarked
package io.github.lockable.store.file;

import org.jspecify.annotations.NullMarked;
