package io.github.lockable.historycheck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs the history check and prints a Markdown table, a row per mode.
 * <p>
 * Arguments: the seconds per mode, then the modes ({@code none pause restart client-pause
 * network lettuce-timeout control}; all of them when none are named). Exits with 1 when a
 * mode's verdict is not the expected one (the control must fail the checker).
 */
public final class HistoryCheck {

	private HistoryCheck() {
	}

	public static void main(String[] args) throws InterruptedException {
		Duration duration = Duration.ofSeconds((args.length > 0) ? Long.parseLong(args[0]) : 30);
		List<Mode> modes = (args.length > 1) ? Arrays.stream(args).skip(1).map(Mode::named).toList()
				: List.of(Mode.values());
		List<RunResult> results = new ArrayList<>();
		for (Mode mode : modes) {
			RunResult result = HistoryRun.run(mode, duration);
			results.add(result);
			System.err.println(mode.displayName() + ": " + (result.brokenRules().isEmpty() ? "pass"
					: String.join("; ", result.brokenRules())) + " (worker logs in " + result.logs() + ")");
			result.report().overlaps().forEach((overlap) -> System.err.println("  overlap " + overlap));
		}
		System.out.println(RunResult.TABLE_HEADER);
		results.forEach((result) -> System.out.println(result.tableRow()));
		System.exit(results.stream().allMatch(RunResult::expected) ? 0 : 1);
	}

}
