package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.core.LockableCore;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.lang.Nullable;

/**
 * Handoff latency of waiting for a held lock: from the holder's release to the next
 * holder's start, on the Redis store (the test harness's server) and the memory store, and
 * in {@link SideBySide} for the peers that can wait.
 * <p>
 * Several threads contend for one key. Each loops: take the lock, waiting for it (for
 * Lockable, {@link LockTemplate#tryLock(String, Duration, Duration)}, which waits with
 * {@link LockStore#awaitRelease} between attempts). A holder keeps the lock for a moment, notes {@link System#nanoTime()} just before its
 * release, and then waits until another thread took the lock, so that it does not barge
 * in on its own release; the next holder notes when its acquire answered acquired. Prints
 * the median, 90th and 99th percentile in milliseconds.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.Handoff [--threads=4] [--handoffs=2000] [--seconds=60] [--hold-us=1000]
 * </pre>
 */
public final class Handoff {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final Duration MAX_WAIT = Duration.ofSeconds(5);

	private final WaitingLock lock;

	private final String key;

	private final long[] latencies;

	private final long deadline;

	private final Duration hold;

	private final Object monitor = new Object();

	/** Guarded by the monitor: acquisitions so far, and the last holder's note. */
	private int acquisitions;

	private int recorded;

	private long releasedAt;

	private Thread releasedBy;

	/** Guarded by the monitor: the first failure, which ends the run. */
	@Nullable
	private String failure;

	private Handoff(WaitingLock lock, int handoffs, Duration bound, Duration hold) {
		this.lock = lock;
		this.key = "bench:handoff:" + System.nanoTime();
		this.latencies = new long[handoffs];
		this.deadline = System.nanoTime() + bound.toNanos();
		this.hold = hold;
	}

	public static void main(String[] args) throws Exception {
		int threads = 4;
		int handoffs = 2000;
		Duration bound = Duration.ofSeconds(60);
		Duration hold = Duration.ofMillis(1);
		for (String arg : args) {
			if (arg.startsWith("--threads=")) {
				threads = Integer.parseInt(arg.substring(10));
			}
			else if (arg.startsWith("--handoffs=")) {
				handoffs = Integer.parseInt(arg.substring(11));
			}
			else if (arg.startsWith("--seconds=")) {
				bound = Duration.ofSeconds(Long.parseLong(arg.substring(10)));
			}
			else if (arg.startsWith("--hold-us=")) {
				hold = Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(Long.parseLong(arg.substring(10))));
			}
		}
		System.out.printf("%d threads on one key, up to %d handoffs or %ds, each holder keeping the lock %dus%n",
				threads, handoffs, bound.toSeconds(), hold.toNanos() / 1000);
		measure("memory", of(new MemoryLockStore()), threads, handoffs, bound, hold);
		RedisTestServer redis = RedisTestServer.shared();
		LettuceConnectionFactory connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
		try (RedisLockStore store = new RedisLockStore(connectionFactory, Duration.ofSeconds(2))) {
			measure("redis", of(store), threads, handoffs, bound, hold);
		}
		finally {
			connectionFactory.destroy();
		}
		System.exit(0);
	}

	/**
	 * Measures one lock's handoffs and prints them.
	 * @param name the lock's name in the output
	 * @param lock how a thread takes the lock, waiting
	 * @param threads how many threads contend for the key
	 * @param handoffs how many handoffs to note at most
	 * @param bound how long to run at most
	 * @param hold how long a holder keeps the lock
	 * @return the handoff latencies
	 */
	static Result measure(String name, WaitingLock lock, int threads, int handoffs, Duration bound, Duration hold)
			throws InterruptedException {
		Handoff handoff = new Handoff(lock, handoffs, bound, hold);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			Thread worker = new Thread(() -> handoff.contend(thread), "handoff-" + t);
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}
		Result result;
		synchronized (handoff.monitor) {
			long[] measured = Arrays.copyOf(handoff.latencies, handoff.recorded);
			Arrays.sort(measured);
			result = new Result(name, measured.length, millis(measured, 50), millis(measured, 90),
					millis(measured, 99), millis(measured, 100), handoff.failure);
		}
		System.out.println(result);
		return result;
	}

	/**
	 * Lockable's waiting acquire on a store, through the flow behind
	 * {@code @Lockable(waitTime)} and {@code LockTemplate}.
	 * @param store the store
	 * @return the waiting lock
	 */
	static WaitingLock of(LockStore store) {
		LockTemplate locks = LockableCore.builder(store).ttlWarningRatio(1.0).build().template();
		return (key, thread, maxWait) -> {
			HeldLock held = locks.tryLock(key, TTL, maxWait).orElse(null);
			return (held != null) ? held::close : null;
		};
	}

	private void contend(int thread) {
		try {
			while (!done()) {
				Runnable release = this.lock.tryLock(this.key, thread, MAX_WAIT);
				if (release != null) {
					int mine = took(System.nanoTime());
					LockSupport.parkNanos(this.hold.toNanos());
					released();
					release.run();
					awaitNextHolder(mine);
				}
			}
		}
		catch (Exception ex) {
			synchronized (this.monitor) {
				this.failure = (this.failure != null) ? this.failure : ex.toString();
				this.monitor.notifyAll();
			}
		}
	}

	private int took(long now) {
		synchronized (this.monitor) {
			if (this.releasedBy != null && this.releasedBy != Thread.currentThread()
					&& this.recorded < this.latencies.length) {
				this.latencies[this.recorded++] = now - this.releasedAt;
			}
			this.releasedBy = null;
			this.monitor.notifyAll();
			return ++this.acquisitions;
		}
	}

	private void released() {
		synchronized (this.monitor) {
			this.releasedBy = Thread.currentThread();
			this.releasedAt = System.nanoTime();
		}
	}

	/** Waits, without spinning, until another thread took the lock or a second passed. */
	private void awaitNextHolder(int mine) {
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
		synchronized (this.monitor) {
			while (this.acquisitions == mine && !done()) {
				long left = until - System.nanoTime();
				if (left <= 0) {
					return;
				}
				try {
					TimeUnit.NANOSECONDS.timedWait(this.monitor, left);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private boolean done() {
		synchronized (this.monitor) {
			return this.recorded >= this.latencies.length || this.failure != null
					|| System.nanoTime() - this.deadline > 0;
		}
	}

	private static double millis(long[] sorted, int percentile) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1_000_000.0;
	}

	/**
	 * Takes a lock, waiting for its holder's release.
	 */
	@FunctionalInterface
	interface WaitingLock {

		/**
		 * Takes the lock, waiting up to {@code maxWait}.
		 * @param key the lock's name
		 * @param thread the index of the calling thread, from 0
		 * @param maxWait how long to wait at most
		 * @return what releases the lock, or {@code null} when it was not taken in time
		 */
		@Nullable
		Runnable tryLock(String key, int thread, Duration maxWait) throws InterruptedException;

	}

	/**
	 * Handoff latencies of one lock, in milliseconds.
	 *
	 * @param name the lock
	 * @param handoffs how many handoffs were noted
	 * @param median the median
	 * @param p90 the 90th percentile
	 * @param p99 the 99th percentile
	 * @param max the longest
	 * @param failure the first failure, which ended the run, or {@code null}
	 */
	record Result(String name, int handoffs, double median, double p90, double p99, double max,
			@Nullable String failure) {

		@Override
		public String toString() {
			return String.format("%-6s handoffs %5d  median %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms%s", this.name,
					this.handoffs, this.median, this.p90, this.p99, this.max,
					(this.failure != null) ? "  FAILED: " + this.failure : "");
		}

	}

}
