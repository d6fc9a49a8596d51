package io.github.lockable.store.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.NonBlockingCallers;
import io.github.lockable.store.PollBackoff;
import io.github.lockable.store.ReleaseWaiters;

import org.springframework.util.ClassUtils;

/**
 * Waiters of a PostgreSQL lock table, woken by the releases of every store on the table
 * through {@code LISTEN}/{@code NOTIFY} ({@link ReleaseChannel}).
 * <p>
 * One connection of the data source listens, and only while somebody waits: the first
 * waiter opens it (on a daemon thread of its own, which then receives the notifications),
 * and it goes back to the pool a short linger after the last waiter left, so that a caller
 * that waits round after round does not reconnect every round ({@link ListeningConnection}:
 * auto-commit, a read timeout and a {@code SELECT 1} after a long silence).
 * <p>
 * While it listens, a waiter waits up to its maximum wait, but at most the
 * {@code listeningPoll}: a notification wakes it, the poll only covers a notification that
 * went astray. A notification that finds no waiter of its key is remembered for a moment,
 * for a waiter whose acquire failed just before the release and who registers just after
 * it: that waiter completes at once (at worst one needless acquire). While it does not
 * listen (opening, broken, closed), waiters wait as the store waits everywhere else
 * ({@link PollBackoff}). A broken connection wakes the listening waiters at once, so that
 * they go on polling, is logged once at WARN, and is opened again by a later waiter after
 * a back-off.
 * <p>
 * No waiter's continuation runs on the listening thread, nor on the JDK's timer thread
 * ({@link NonBlockingCallers#offWakingThread}), as a continuation may take a connection and
 * run the next acquire.
 */
final class ReleaseNotifications implements AutoCloseable {

	/** The one place that asks whether pgjdbc, which the listening needs, is on the class path. */
	static final boolean DRIVER_PRESENT = ClassUtils.isPresent("org.postgresql.PGConnection",
			ReleaseNotifications.class.getClassLoader());

	static final Duration LISTENING_POLL = Duration.ofSeconds(1);

	static final Duration LINGER = Duration.ofSeconds(2);

	private static final long RECEIVE_MILLIS = 250;

	private static final long MISSED_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	private static final int MAX_MISSED = 10_000;

	private static final long FIRST_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(30);

	private static final Logger logger = LoggerFactory.getLogger(ReleaseNotifications.class);

	private final DataSource dataSource;

	private final ReleaseChannel channel;

	private final PollBackoff backoff;

	private final Duration listeningPoll;

	private final long lingerNanos;

	private final int timeoutSeconds;

	private final ReleaseWaiters waiters = new ReleaseWaiters();

	private final Object monitor = new Object();

	/** Waits in progress, those that poll, and those that wait for notifications, by key; guarded by the monitor. */
	private int waiting;

	private int polling;

	private final Map<String, Integer> listeningWaits = new HashMap<>();

	/** Keys notified when none of their waiters was there, with the time; guarded by the monitor. */
	private final Map<String, Long> missed = new HashMap<>();

	/** Guarded by the monitor. */
	private long idleSince = System.nanoTime();

	private @Nullable Thread listener;

	private boolean closed;

	/** When a connection may be opened again, on {@link System#nanoTime()}, whose origin is arbitrary. */
	private long retryAt = System.nanoTime();

	private long retryNanos = FIRST_RETRY_NANOS;

	private boolean warned;

	private volatile boolean listening;

	private final AtomicLong delivered = new AtomicLong();

	private final AtomicLong wakes = new AtomicLong();

	ReleaseNotifications(DataSource dataSource, String table, PollBackoff backoff, Duration timeout,
			Duration listeningPoll, Duration linger) {
		this.dataSource = dataSource;
		this.channel = new ReleaseChannel(table);
		this.backoff = backoff;
		this.listeningPoll = listeningPoll;
		this.lingerNanos = linger.toNanos();
		this.timeoutSeconds = (int) Math.max(1, Math.min(60, (timeout.toMillis() + 999) / 1000));
	}

	ReleaseChannel channel() {
		return this.channel;
	}

	/** See {@link JdbcLockStore#awaitRelease(String, Duration)}. */
	CompletableFuture<Void> await(String key, Duration maxWait) {
		if (maxWait.isNegative() || maxWait.isZero()) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<Void> inner;
		synchronized (this.monitor) {
			if (this.closed) {
				return this.backoff.await(key, maxWait);
			}
			if (!this.listening) {
				startListening();
				inner = this.backoff.await(key, maxWait);
				this.waiting++;
				this.polling++;
				inner.whenComplete((done, ex) -> left(null));
				return inner;
			}
			this.waiting++;
			this.listeningWaits.merge(key, 1, Integer::sum);
			Long notified = this.missed.remove(key);
			inner = (notified != null && System.nanoTime() - notified < MISSED_NANOS)
					? CompletableFuture.completedFuture(null)
					: this.waiters.await(key, (this.listeningPoll.compareTo(maxWait) < 0) ? this.listeningPoll : maxWait);
		}
		inner.whenComplete((done, ex) -> left(key));
		return NonBlockingCallers.offWakingThread(inner);
	}

	private void left(@Nullable String key) {
		synchronized (this.monitor) {
			if (key != null) {
				this.listeningWaits.computeIfPresent(key, (k, count) -> (count > 1) ? count - 1 : null);
			}
			else {
				this.polling--;
			}
			if (--this.waiting == 0) {
				this.idleSince = System.nanoTime();
			}
		}
	}

	/** This JVM released the key: its listening waiters wake without waiting for the notification. */
	void releasedHere(String key) {
		this.waiters.released(key);
	}

	/** Guarded by the monitor. */
	private void startListening() {
		if (this.listener != null || System.nanoTime() - this.retryAt < 0) {
			return;
		}
		Thread thread = new Thread(this::listen, "lockable-jdbc-listen-" + this.channel.name());
		thread.setDaemon(true);
		this.listener = thread;
		thread.start();
	}

	private void listen() {
		ListeningConnection opened = null;
		try {
			opened = ListeningConnection.open(this.dataSource, this.channel, this.timeoutSeconds);
			synchronized (this.monitor) {
				if (this.closed) {
					return;
				}
				this.listening = true;
				this.retryNanos = FIRST_RETRY_NANOS;
				this.warned = false;
			}
			logger.debug("Listening on {} for the releases of other lock stores", this.channel.name());
			while (stillWanted()) {
				opened.receive((int) RECEIVE_MILLIS).forEach(this::notified);
			}
		}
		catch (SQLException | RuntimeException ex) {
			failed(ex);
		}
		finally {
			stopped(opened);
		}
	}

	private boolean stillWanted() {
		synchronized (this.monitor) {
			return !this.closed && (this.waiting > 0 || System.nanoTime() - this.idleSince < this.lingerNanos);
		}
	}

	private void notified(String key) {
		this.delivered.incrementAndGet();
		boolean polled;
		synchronized (this.monitor) {
			polled = this.polling > 0;
			if (this.listeningWaits.containsKey(key)) {
				this.wakes.incrementAndGet();
				this.waiters.released(key);
			}
			else {
				if (this.missed.size() >= MAX_MISSED) {
					this.missed.clear();
				}
				this.missed.put(key, System.nanoTime());
			}
		}
		if (polled) {
			// waiters that began while the connection was opening
			this.backoff.released(key);
		}
	}

	private void failed(Exception ex) {
		boolean warn;
		synchronized (this.monitor) {
			if (this.closed) {
				return;
			}
			this.retryAt = System.nanoTime() + this.retryNanos;
			this.retryNanos = Math.min(this.retryNanos * 2, MAX_RETRY_NANOS);
			warn = !this.warned;
			this.warned = true;
		}
		if (warn) {
			logger.warn("The JDBC lock store's listening connection on {} failed ({}); waiters poll until a later "
					+ "wait connects again", this.channel.name(), ex.toString());
		}
		else {
			logger.debug("The JDBC lock store's listening connection on {} failed again", this.channel.name(), ex);
		}
	}

	private void stopped(@Nullable ListeningConnection opened) {
		synchronized (this.monitor) {
			this.listening = false;
			if (this.listener == Thread.currentThread()) {
				this.listener = null;
			}
			this.missed.clear();
		}
		// waiters that counted on a notification poll from here on
		this.waiters.releasedAll();
		if (opened != null) {
			opened.close();
		}
	}

	/** Whether a connection listens now. */
	boolean listening() {
		return this.listening;
	}

	/** Notifications received on the channel. */
	long delivered() {
		return this.delivered.get();
	}

	/** Notifications that found waiters of their key. */
	long wakes() {
		return this.wakes.get();
	}

	/** Stops listening, gives the connection back and wakes every waiter; later waiters poll. */
	@Override
	public void close() {
		Thread thread;
		synchronized (this.monitor) {
			this.closed = true;
			thread = this.listener;
		}
		if (thread != null) {
			try {
				thread.join(TimeUnit.SECONDS.toMillis(this.timeoutSeconds) + 2 * RECEIVE_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.waiters.releasedAll();
	}

}
