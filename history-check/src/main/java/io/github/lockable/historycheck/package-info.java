/**
 * A Jepsen-style history check of Lockable's exclusion and fencing: worker JVMs lock keys
 * through {@link io.github.lockable.LockTemplate} and write to a fenced Redis with their
 * fencing tokens while a fault driver injects faults; every event is stamped by the fenced
 * server's clock, and {@link io.github.lockable.historycheck.HistoryChecker} reads the
 * history. Run {@link io.github.lockable.historycheck.HistoryCheck} for the figures.
 */
package io.github.lockable.historycheck;
