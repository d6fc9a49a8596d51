package io.github.lockable.historycheck;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short run of every mode against real redis-server processes and three worker JVMs: each
 * mode gets the checker's verdict it expects, the control a failure. {@link HistoryCheck}
 * runs the long version and prints the figures.
 */
@Tag("slow")
class HistoryCheckModesTests {

	private static final Duration SHORT_RUN = Duration.ofSeconds(9);

	@ParameterizedTest
	@EnumSource(Mode.class)
	void theCheckerGivesEachModeItsExpectedVerdict(Mode mode) throws InterruptedException {
		RunResult result = HistoryRun.run(mode, SHORT_RUN);
		System.out.println(RunResult.TABLE_HEADER + "\n" + result.tableRow());
		assertThat(result.report().writesAccepted()).as("progress").isPositive();
		if (mode == Mode.CONTROL) {
			assertThat(result.brokenRules()).as("the control, without locks, must fail the checker").isNotEmpty();
			assertThat(result.report().overlapsUnexplained()).isPositive();
		}
		else {
			assertThat(result.brokenRules()).as("rules broken in %s (worker logs in %s)", mode.displayName(),
					result.logs()).isEmpty();
		}
		if (mode == Mode.RESTART || mode == Mode.RESTART_DELAYED) {
			assertThat(result.report().currentHoldersRefused()).isZero();
			assertThat(result.report().tokensBack()).isZero();
		}
		if (mode == Mode.RESTART_DELAYED) {
			assertThat(result.report().overlaps()).as("no overlap after a restart with the lock-delay").isEmpty();
		}
		if (mode == Mode.PAUSE) {
			assertThat(result.report().overlaps()).as("a holder frozen past its TTL is joined by another")
				.isNotEmpty();
		}
	}

}
