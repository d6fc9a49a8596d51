package io.github.lockable.historycheck;

import java.util.List;

/**
 * What the checker found in one run's history.
 *
 * @param grants leases granted
 * @param acquiresFailed acquires that ended in an exception (the store unreachable or late)
 * @param writesAccepted writes the fenced resource accepted
 * @param overlaps pairs of workers that believed they held a key at once, with the fault
 * that explains each
 * @param acceptedNotAbove accepted writes whose token was not above the last accepted (must be 0)
 * @param staleRefused writes refused because a newer holder had written with a higher token
 * @param currentHoldersRefused writes of the newest holder refused because its token went
 * back below an older holder's (must be 0)
 * @param tokensBack grants whose token was not above one granted earlier for the key (must be 0)
 * @param grantsWhileLive grants while another worker's lease was surely live
 * @param grantsWhileLiveUnexplained those no fault window explains
 * @param heldPastTtl {@code isHeld()} answers true after the lease surely expired (must be 0)
 * @param orphanRefusals acquires refused while no lease could have held the key
 */
record CheckReport(long grants, long acquiresFailed, long writesAccepted, List<Overlap> overlaps, long acceptedNotAbove,
		long staleRefused, long currentHoldersRefused, long tokensBack, long grantsWhileLive,
		long grantsWhileLiveUnexplained, long heldPastTtl, long orphanRefusals) {

	long overlapsUnexplained() {
		return this.overlaps.stream().filter((overlap) -> overlap.explainedBy() == null).count();
	}

	/**
	 * The safety rules every mode with locks must keep, whatever the fault.
	 * @return the rules broken, empty when none
	 */
	List<String> brokenSafetyRules() {
		List<String> broken = new java.util.ArrayList<>();
		rule(broken, this.acceptedNotAbove, "accepted writes with a token not above the last accepted");
		rule(broken, this.currentHoldersRefused, "current holders refused because their token went back");
		rule(broken, this.tokensBack, "tokens that went back");
		rule(broken, this.heldPastTtl, "isHeld() true past the TTL");
		rule(broken, overlapsUnexplained(), "overlapping holders no fault explains");
		rule(broken, this.grantsWhileLiveUnexplained, "grants while an earlier lease was surely live, no fault explains");
		if (this.writesAccepted == 0) {
			broken.add("no write accepted: the run made no progress");
		}
		return broken;
	}

	private static void rule(List<String> broken, long count, String what) {
		if (count != 0) {
			broken.add(count + " " + what);
		}
	}

}
