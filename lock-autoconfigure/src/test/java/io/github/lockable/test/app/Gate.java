package io.github.lockable.test.app;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;

/**
 * Holds handlers inside their critical section until the test opens the gate, so that a
 * test decides when a lock is released instead of guessing with sleeps.
 */
public class Gate {

	private static final Duration LONGEST_HOLD = Duration.ofSeconds(30);

	private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> entered = new ConcurrentHashMap<>();

	private final AtomicInteger runs = new AtomicInteger();

	/**
	 * Counts handler runs; shared by the test beans, which are proxies whose fields the
	 * tests cannot read.
	 */
	public AtomicInteger runs() {
		return this.runs;
	}

	/**
	 * Called by a handler: records the entry, then waits until the gate opens (at most 30s).
	 */
	public void pass(String name) {
		this.entered.computeIfAbsent(name, (key) -> new AtomicInteger()).incrementAndGet();
		try {
			if (!latch(name).await(LONGEST_HOLD.toSeconds(), TimeUnit.SECONDS)) {
				throw new IllegalStateException("Gate " + name + " was never opened");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public void open(String name) {
		latch(name).countDown();
	}

	public int entered(String name) {
		AtomicInteger count = this.entered.get(name);
		return (count != null) ? count.get() : 0;
	}

	public void awaitEntered(String name, int count) {
		await().atMost(Duration.ofSeconds(20)).until(() -> entered(name) >= count);
	}

	public void reset() {
		this.gates.values().forEach(CountDownLatch::countDown);
		this.gates.clear();
		this.entered.clear();
		this.runs.set(0);
	}

	private CountDownLatch latch(String name) {
		return this.gates.computeIfAbsent(name, (key) -> new CountDownLatch(1));
	}

}
