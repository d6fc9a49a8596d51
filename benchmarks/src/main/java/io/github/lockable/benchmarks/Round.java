package io.github.lockable.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;

/**
 * One timed round of one contender: every thread loops over its attempt until the time is
 * up.
 * <p>
 * Allocation is read per thread ({@link ThreadMXBean#getThreadAllocatedBytes(long)}):
 * {@code callerBytes} on the threads that call the library, {@code jvmBytes} on those plus
 * every thread that lived through the round, the clients' I/O threads included. CPU time
 * is the whole process's ({@link OperatingSystemMXBean#getProcessCpuTime()}), which a busy
 * machine slows down less than it slows down the rate.
 *
 * @param attemptsPerSecond tries per second, all threads together
 * @param successesPerSecond tries that took the lock, per second
 * @param callerBytesPerAttempt bytes allocated by the calling threads per try
 * @param jvmBytesPerAttempt bytes allocated in the whole JVM per try
 * @param cpuMicrosPerAttempt CPU time of the whole JVM per try, in microseconds
 * @param serverCpuMicrosPerAttempt CPU time of the Redis server per try, in microseconds
 */
record Round(double attemptsPerSecond, double successesPerSecond, double callerBytesPerAttempt,
		double jvmBytesPerAttempt, double cpuMicrosPerAttempt, double serverCpuMicrosPerAttempt) {

	private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

	private static final OperatingSystemMXBean SYSTEM = (OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	/**
	 * Runs one round.
	 * @param threads how many threads try at the same time
	 * @param attempts each thread's attempt, by thread index
	 * @param section what runs while the lock is held
	 * @param millis how long the round lasts
	 * @param serverCpuMicros the Redis server's CPU time so far, in microseconds
	 * @return the round's figures
	 * @throws IllegalStateException when an attempt threw
	 */
	static Round measure(int threads, IntFunction<Contender.Attempt> attempts, Runnable section, long millis,
			LongSupplier serverCpuMicros) throws InterruptedException {
		LongAdder tries = new LongAdder();
		LongAdder successes = new LongAdder();
		LongAdder callerBytes = new LongAdder();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		AtomicBoolean running = new AtomicBoolean(true);
		CountDownLatch start = new CountDownLatch(1);
		long[] others = THREADS.getAllThreadIds();
		long[] othersBefore = THREADS.getThreadAllocatedBytes(others);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Contender.Attempt attempt = attempts.apply(t);
			Thread worker = new Thread(() -> {
				try {
					start.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
				long mine = 0;
				long taken = 0;
				try {
					while (running.get()) {
						if (attempt.tryOnce(section)) {
							taken++;
						}
						mine++;
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
				callerBytes.add(THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore);
				tries.add(mine);
				successes.add(taken);
			}, "side-by-side-" + t);
			worker.start();
			workers.add(worker);
		}
		long serverCpuBefore = serverCpuMicros.getAsLong();
		long cpuBefore = SYSTEM.getProcessCpuTime();
		long begin = System.nanoTime();
		start.countDown();
		Thread.sleep(millis);
		running.set(false);
		for (Thread worker : workers) {
			worker.join();
		}
		double seconds = (System.nanoTime() - begin) / 1e9;
		long cpu = SYSTEM.getProcessCpuTime() - cpuBefore;
		long serverCpu = serverCpuMicros.getAsLong() - serverCpuBefore;
		long[] othersAfter = THREADS.getThreadAllocatedBytes(others);
		if (failure.get() != null) {
			throw new IllegalStateException("An attempt failed: " + failure.get(), failure.get());
		}
		long otherBytes = 0;
		for (int i = 0; i < others.length; i++) {
			if (othersBefore[i] >= 0 && othersAfter[i] >= othersBefore[i]) {
				otherBytes += othersAfter[i] - othersBefore[i];
			}
		}
		long count = Math.max(1, tries.sum());
		return new Round(tries.sum() / seconds, successes.sum() / seconds, callerBytes.sum() / (double) count,
				(callerBytes.sum() + otherBytes) / (double) count, cpu / 1000.0 / count,
				serverCpu / (double) count);
	}

}
