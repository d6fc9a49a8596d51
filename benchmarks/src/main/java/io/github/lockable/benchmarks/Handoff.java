package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Handoff latency of waiting by notification: from the holder's release to the next
 * holder's start, on the Redis store (the test harness's server) and the memory store.
 * <p>
 * Several threads contend for one key. Each loops: acquire; if held, wait with
 * {@link LockStore#awaitRelease} for at most the holder's remaining TTL, then acquire again.
 * A holder keeps the lock for a moment, notes {@link System#nanoTime()} just before its
 * release, and then waits until another thread took the lock, so that it does not barge
 * in on its own release; the next holder notes when its acquire answered acquired. Prints
 * the median, 90th and 99th percentile in milliseconds.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.Handoff [--threads=4] [--handoffs=2000] [--seconds=60] [--hold-us=1000]
 * </pre>
 */
public final class Handoff {

	private static final Duration TTL = Duration.ofSeconds(30);

	private final LockStore store;

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

	private Handoff(LockStore store, int handoffs, Duration bound, Duration hold) {
		this.store = store;
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
		new Handoff(new MemoryLockStore(), handoffs, bound, hold).run("memory", threads);
		RedisTestServer redis = RedisTestServer.shared();
		LettuceConnectionFactory connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
		try (RedisLockStore store = new RedisLockStore(connectionFactory, Duration.ofSeconds(2))) {
			new Handoff(store, handoffs, bound, hold).run("redis", threads);
		}
		finally {
			connectionFactory.destroy();
		}
		System.exit(0);
	}

	private void run(String name, int threads) throws InterruptedException {
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(this::contend, "handoff-" + name + "-" + t);
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}
		long[] measured;
		synchronized (this.monitor) {
			measured = Arrays.copyOf(this.latencies, this.recorded);
		}
		Arrays.sort(measured);
		System.out.printf("%-6s handoffs %5d  median %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms%n", name,
				measured.length, millis(measured, 50), millis(measured, 90), millis(measured, 99),
				millis(measured, 100));
	}

	private void contend() {
		while (!done()) {
			AcquireResult result = this.store.acquire(new LockRequest(this.key, TTL));
			if (result instanceof AcquireResult.Acquired acquired) {
				long now = System.nanoTime();
				int mine = took(now);
				LockSupport.parkNanos(this.hold.toNanos());
				released();
				acquired.handle().release();
				awaitNextHolder(mine);
			}
			else if (result instanceof AcquireResult.Held held) {
				Duration remaining = (held.remainingTtl() != null) ? held.remainingTtl() : TTL;
				this.store.awaitRelease(this.key, remaining).toCompletableFuture().join();
			}
			else {
				throw new IllegalStateException("Store failed: " + result);
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
			return this.recorded >= this.latencies.length || System.nanoTime() - this.deadline > 0;
		}
	}

	private static double millis(long[] sorted, int percentile) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1_000_000.0;
	}

}
