/**
 * The lock store SPI: what the lock manager asks of a store, and nothing more.
 *
 * <p>A {@link io.github.lockable.store.LockStore} takes a validated
 * {@link io.github.lockable.store.LockRequest} and answers with one of three
 * {@link io.github.lockable.store.AcquireResult results}: acquired (with a
 * {@link io.github.lockable.store.LockHandle} that releases once), held by someone else
 * (with the holder's remaining TTL), or a store failure. Every store passes the same
 * contract test suite.
 */
@NullMarked
package io.github.lockable.store;

import org.jspecify.annotations.NullMarked;
