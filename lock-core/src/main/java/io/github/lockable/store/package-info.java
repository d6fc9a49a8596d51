/**
 * The lock store SPI: what the lock manager asks of a store, and nothing more.
 *
 * <p>A {@link io.github.lockable.store.LockStore} takes a validated
 * {@link io.github.lockable.store.LockRequest} and answers with one of three
 * {@link io.github.lockable.store.AcquireResult results}: acquired (with a
 * {@link io.github.lockable.store.LockHandle} that releases once), held by someone else
 * (with the holder's remaining TTL), or a store failure. Every store passes the same
 * contract test suite. {@link io.github.lockable.store.LockTokens} (owner tokens) and
 * {@link io.github.lockable.store.ReleaseWaiters} (in-JVM wake-ups) are building blocks for
 * store authors: Lockable's own stores, in modules of their own, use them as a third-party
 * store may.
 */
@NullMarked
package io.github.lockable.store;

import org.jspecify.annotations.NullMarked;
