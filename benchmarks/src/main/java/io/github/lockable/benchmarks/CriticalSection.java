package io.github.lockable.benchmarks;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What runs while a contended lock is held: counts the times a holder found another holder
 * inside, which a lock must never allow while its TTL lasts.
 */
final class CriticalSection implements Runnable {

	private final AtomicInteger inside = new AtomicInteger();

	private final LongAdder overlaps = new LongAdder();

	@Override
	public void run() {
		if (this.inside.incrementAndGet() != 1) {
			this.overlaps.increment();
		}
		this.inside.decrementAndGet();
	}

	long overlaps() {
		return this.overlaps.sum();
	}

}
