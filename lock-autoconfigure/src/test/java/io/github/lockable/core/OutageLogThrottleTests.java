package io.github.lockable.core;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OutageLogThrottleTests {

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	private final OutageLogThrottle outage = new OutageLogThrottle(Duration.ofSeconds(10));

	@Test
	void firstFailureIsReportedThenOneSummaryPerInterval() {
		assertThat(this.outage.failed("TIMEOUT", 0).isFirst()).isTrue();
		for (int i = 1; i <= 9; i++) {
			OutageLogThrottle.Report report = this.outage.failed((i % 3 == 0) ? "UNREACHABLE" : "TIMEOUT", i * SECOND);
			assertThat(report.isFirst() || report.isSummary()).as("failure at %ds", i).isFalse();
		}
		OutageLogThrottle.Report summary = this.outage.failed("TIMEOUT", 10 * SECOND);
		assertThat(summary.isSummary()).isTrue();
		assertThat(summary.codes()).isEqualTo(Map.of("TIMEOUT", 7, "UNREACHABLE", 3));
		assertThat(summary.failures()).isEqualTo(11);
		assertThat(summary.since()).isEqualTo(Duration.ofSeconds(10));
		assertThat(this.outage.failed("TIMEOUT", 11 * SECOND).isSummary()).isFalse();
		assertThat(this.outage.failed("TIMEOUT", 20 * SECOND).codes()).isEqualTo(Map.of("TIMEOUT", 2));
	}

	@Test
	void recoveryEndsTheOutageAndCountsItsFailures() {
		assertThat(this.outage.recovered()).isZero();
		this.outage.failed("TIMEOUT", 0);
		this.outage.failed("TIMEOUT", SECOND);
		assertThat(this.outage.recovered()).isEqualTo(2);
		assertThat(this.outage.recovered()).isZero();
		assertThat(this.outage.failed("TIMEOUT", 2 * SECOND).isFirst()).isTrue();
	}

}
