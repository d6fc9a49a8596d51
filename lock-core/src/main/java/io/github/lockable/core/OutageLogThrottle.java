package io.github.lockable.core;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * A store outage as one locked method sees it, so that the log shows the outage's first
 * failure and then one summary per interval instead of an ERROR per attempt. Every failure
 * is still counted by the metrics; this only decides what is written to the log.
 */
final class OutageLogThrottle {

	/** How often an ongoing outage is summarized. */
	public static final Duration DEFAULT_SUMMARY_INTERVAL = Duration.ofSeconds(10);

	private final long summaryIntervalNanos;

	/** Read on every successful attempt without taking the monitor. */
	private volatile boolean ongoing;

	private long failures;

	private long lastReportNanos;

	private final Map<String, Integer> unreportedCodes = new TreeMap<>();

	/**
	 * @param summaryInterval how often an ongoing outage is summarized
	 */
	public OutageLogThrottle(Duration summaryInterval) {
		this.summaryIntervalNanos = summaryInterval.toNanos();
	}

	/**
	 * Counts a failure.
	 * @param code the failure's code
	 * @param nowNanos the monotonic time of the failure
	 * @return what to log: the outage's first failure, a summary of the failures since the
	 * last report, or nothing
	 */
	synchronized Report failed(String code, long nowNanos) {
		this.failures++;
		if (!this.ongoing) {
			this.ongoing = true;
			this.lastReportNanos = nowNanos;
			return Report.FIRST;
		}
		this.unreportedCodes.merge(code, 1, Integer::sum);
		if (nowNanos - this.lastReportNanos < this.summaryIntervalNanos) {
			return Report.NONE;
		}
		Report summary = new Report(Map.copyOf(this.unreportedCodes), this.failures,
				Duration.ofNanos(nowNanos - this.lastReportNanos));
		this.unreportedCodes.clear();
		this.lastReportNanos = nowNanos;
		return summary;
	}

	/**
	 * Ends the outage, if there is one.
	 * @return the number of failures the outage had, or 0 when there was none
	 */
	long recovered() {
		if (!this.ongoing) {
			return 0;
		}
		synchronized (this) {
			long failures = this.failures;
			this.ongoing = false;
			this.failures = 0;
			this.unreportedCodes.clear();
			return failures;
		}
	}

	/**
	 * What the log shows of a failure.
	 *
	 * @param codes failures not logged since the last report, by code; empty for the first
	 * failure of an outage
	 * @param failures failures of the outage so far
	 * @param since time since the last report
	 */
	record Report(Map<String, Integer> codes, long failures, Duration since) {

		static final Report FIRST = new Report(Map.of(), 1, Duration.ZERO);

		static final Report NONE = new Report(Map.of(), 0, Duration.ZERO);

		boolean isFirst() {
			return this == FIRST;
		}

		boolean isSummary() {
			return !this.codes.isEmpty();
		}

	}

}
