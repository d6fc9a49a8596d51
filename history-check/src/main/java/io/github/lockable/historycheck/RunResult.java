package io.github.lockable.historycheck;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One run's outcome: the checker's report and the rules the mode says it broke.
 *
 * @param mode the mode
 * @param duration how long the workers ran under the fault driver
 * @param events how many events the history holds
 * @param report what the checker found
 * @param brokenRules the rules broken, empty when the checker passes the run
 * @param logs the workers' logs
 */
record RunResult(Mode mode, Duration duration, int events, CheckReport report, List<String> brokenRules, Path logs) {

	static final String TABLE_HEADER = """
			| mode | s | events | grants | acquires failed | writes accepted | overlaps (explained) | accepted not above last | \
			stale writes refused | current holders refused | tokens back | grants while live (explained) | \
			isHeld past TTL | orphan refusals | checker | expected |
			|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|""";

	boolean expected() {
		return this.mode.expected(this.brokenRules);
	}

	String tableRow() {
		CheckReport r = this.report;
		long overlapsExplained = r.overlaps().size() - r.overlapsUnexplained();
		return "| %s | %d | %d | %d | %d | %d | %d (%d) | %d | %d | %d | %d | %d (%d) | %d | %d | %s | %s |".formatted(
				this.mode.displayName(), this.duration.toSeconds(), this.events, r.grants(), r.acquiresFailed(),
				r.writesAccepted(),
				r.overlaps().size(), overlapsExplained, r.acceptedNotAbove(), r.staleRefused(),
				r.currentHoldersRefused(), r.tokensBack(), r.grantsWhileLive(),
				r.grantsWhileLive() - r.grantsWhileLiveUnexplained(), r.heldPastTtl(), r.orphanRefusals(),
				this.brokenRules.isEmpty() ? "pass" : "FAIL", expected() ? "yes" : "NO");
	}

}
