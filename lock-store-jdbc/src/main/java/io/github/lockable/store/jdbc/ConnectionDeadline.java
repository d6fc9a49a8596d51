package io.github.lockable.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * A connection from the data source within the store's timeout. A pool waits for a free
 * connection as long as its own setting says (Hikari's {@code connectionTimeout}, 30 s by
 * default), longer than the store may take; so a thread still waiting at the store's
 * deadline is interrupted, which pools answer by giving up the wait with an
 * {@link SQLException} (Hikari: "Interrupted during connection acquisition").
 * <p>
 * The interrupt is guarded: it is only sent while the thread is inside
 * {@link DataSource#getConnection()}, and once the thread has left it, it waits for an
 * interrupt already on its way and clears it, so that none reaches a statement or the
 * caller. The deadline's timer is the JDK's own (a {@link CompletableFuture#orTimeout}
 * delay, cancelled when the connection comes): no thread of the store's. A connection that
 * comes after the deadline anyway (a pool deaf to interrupts) is used: an acquire that then
 * lands late is released again by {@link Acquisitions}.
 */
final class ConnectionDeadline {

	private static final int WAITING = 0;

	private static final int INTERRUPTING = 1;

	private static final int INTERRUPTED = 2;

	private static final int LEFT = 3;

	private final Thread thread = Thread.currentThread();

	private final AtomicInteger state = new AtomicInteger(WAITING);

	private ConnectionDeadline() {
	}

	/**
	 * A connection, on the calling thread, from a data source given {@code timeout} to hand
	 * it out; the calling thread's interrupt status is as it was.
	 * @throws ConnectionTimeout if the wait was cut off at the deadline
	 * @throws SQLException if the data source failed otherwise
	 */
	static Connection connect(DataSource dataSource, Duration timeout) throws SQLException {
		ConnectionDeadline deadline = new ConnectionDeadline();
		CompletableFuture<Void> timer = new CompletableFuture<>();
		timer.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
			.whenComplete((done, timedOut) -> deadline.interrupt(timedOut != null));
		Connection connection;
		try {
			connection = dataSource.getConnection();
		}
		catch (SQLException | RuntimeException ex) {
			if (deadline.leave()) {
				throw new ConnectionTimeout(timeout, ex);
			}
			throw ex;
		}
		finally {
			timer.complete(null);
		}
		deadline.leave();
		return connection;
	}

	private void interrupt(boolean timedOut) {
		if (timedOut && this.state.compareAndSet(WAITING, INTERRUPTING)) {
			this.thread.interrupt();
			this.state.set(INTERRUPTED);
		}
	}

	/** Whether the deadline came first; its interrupt is cleared then. */
	private boolean leave() {
		if (this.state.compareAndSet(WAITING, LEFT)) {
			return false;
		}
		while (this.state.get() != INTERRUPTED) {
			// the deadline's thread is between its two steps, for an instant
			Thread.onSpinWait();
		}
		Thread.interrupted();
		return true;
	}

	/** No connection within the store's timeout: the wait was cut off, a {@code TIMEOUT} of the store's. */
	static final class ConnectionTimeout extends SQLTimeoutException {

		private static final long serialVersionUID = 1L;

		ConnectionTimeout(Duration timeout, Exception cause) {
			super("no connection from the data source within the store's timeout of " + timeout.toMillis()
					+ "ms: its pool is exhausted or the database is unreachable. Raise the pool's maximum size, "
					+ "or give Lockable a DataSource of its own", cause);
		}

	}

}
