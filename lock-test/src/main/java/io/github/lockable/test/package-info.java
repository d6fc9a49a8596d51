/**
 * The test kit: {@link io.github.lockable.test.LockableTestKit} and
 * {@link io.github.lockable.test.AutoConfigureLockable} for an application's tests, and
 * {@link io.github.lockable.test.LockStoreContract}, the contract every lock store passes.
 */
@NullMarked
package io.github.lockable.test;

import org.jspecify.annotations.NullMarked;
