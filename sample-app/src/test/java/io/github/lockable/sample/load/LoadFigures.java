package io.github.lockable.sample.load;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * What a {@link LoadGenerator} run counted.
 *
 * @param requests the requests the run was to send
 * @param clients the concurrent clients
 * @param successesByInstance the 2xx answers, by instance
 * @param successes the 2xx answers, by slot
 * @param conflicts the answers with the conflict policy's status and a {@code Retry-After}
 * @param failures every other outcome (another status, an exception, not sent), by kind
 * @param duration how long the run took
 * @param latencies how long the answers took
 */
record LoadFigures(int requests, int clients, long[] successesByInstance, long[] successes, long conflicts,
		Map<String, Long> failures, Duration duration, Latencies latencies) {

	long totalSuccesses() {
		return Arrays.stream(this.successes).sum();
	}

	long totalFailures() {
		return this.failures.values().stream().mapToLong(Long::longValue).sum();
	}

	long throughput() {
		return Math.round(this.requests / (this.duration.toNanos() / 1e9));
	}

	/**
	 * One line with every figure, for the build log and the README.
	 * @param topology the Redis the instances locked on
	 * @param overlaps the overlaps the handlers counted
	 * @param staleFences the stale fencing tokens the handlers counted
	 * @param lostUpdates the successes the lost-update counters miss
	 * @return the summary
	 */
	String summary(String topology, long overlaps, long staleFences, long lostUpdates) {
		return String.format(
				"Load on %s: %,d requests from %d clients to %d instances on %d keys in %.1fs (%,d requests/s): "
						+ "%,d succeeded %s, %,d conflicts, %,d failed %s; latency %s; overlaps %d, "
						+ "stale fencing tokens %d, lost updates %d",
				topology, this.requests, this.clients, this.successesByInstance.length, this.successes.length,
				this.duration.toMillis() / 1000.0, throughput(), totalSuccesses(),
				Arrays.toString(this.successesByInstance), this.conflicts, totalFailures(), this.failures,
				this.latencies, overlaps, staleFences, lostUpdates);
	}

	/**
	 * The median, 99th percentile and longest time a request took to be answered.
	 *
	 * @param median the median
	 * @param p99 the 99th percentile
	 * @param max the longest
	 */
	record Latencies(Duration median, Duration p99, Duration max) {

		static Latencies of(long[] nanos) {
			long[] sent = Arrays.stream(nanos).filter((latency) -> latency > 0).sorted().toArray();
			if (sent.length == 0) {
				return new Latencies(Duration.ZERO, Duration.ZERO, Duration.ZERO);
			}
			return new Latencies(Duration.ofNanos(sent[sent.length / 2]),
					Duration.ofNanos(sent[(int) Math.min(sent.length - 1, Math.ceil(sent.length * 0.99) - 1)]),
					Duration.ofNanos(sent[sent.length - 1]));
		}

		@Override
		public String toString() {
			return String.format("median %.1fms, p99 %.1fms, max %.0fms", this.median.toNanos() / 1e6,
					this.p99.toNanos() / 1e6, this.max.toNanos() / 1e6);
		}

	}

}
