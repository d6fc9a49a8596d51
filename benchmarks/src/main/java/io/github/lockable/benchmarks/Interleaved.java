package io.github.lockable.benchmarks;

import java.util.Arrays;
import java.util.List;

/**
 * One thread taking turns, cycle by cycle, between the contenders, timing each cycle: a
 * busy machine's pauses then hit every contender alike, and the median cycle of each,
 * over thousands, is the figure the least disturbed by them. Only for one thread: with
 * more, the contenders would run at the same time and slow each other.
 */
final class Interleaved {

	private static final int MAX_CYCLES = 200_000;

	private Interleaved() {
	}

	/**
	 * Runs the cycles.
	 * @param attempts one attempt per contender, each on an uncontended key
	 * @param millis how long to take turns
	 * @return the median cycle of each contender, in nanoseconds, in the order given
	 */
	static double[] medianNanos(List<Contender.Attempt> attempts, long millis) throws Exception {
		int contenders = attempts.size();
		long[][] cycles = new long[contenders][MAX_CYCLES];
		int count = 0;
		Runnable section = () -> {
		};
		long deadline = System.nanoTime() + millis * 1_000_000;
		while (count < MAX_CYCLES && System.nanoTime() - deadline < 0) {
			for (int i = 0; i < contenders; i++) {
				// Rotate the starting contender so that none always follows another.
				int c = (i + count) % contenders;
				long start = System.nanoTime();
				if (!attempts.get(c).tryOnce(section)) {
					throw new IllegalStateException("An uncontended lock was refused");
				}
				cycles[c][count] = System.nanoTime() - start;
			}
			count++;
		}
		double[] medians = new double[contenders];
		for (int c = 0; c < contenders; c++) {
			long[] sorted = Arrays.copyOf(cycles[c], count);
			Arrays.sort(sorted);
			medians[c] = sorted[count / 2];
		}
		return medians;
	}

}
