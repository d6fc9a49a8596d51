package io.github.lockable.historycheck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Checks a history for breaches of exclusion and fencing. Every bound is conservative: a
 * lease counts from when its worker recorded the grant until it recorded that it would
 * release, so two intervals that intersect are two real holders at once.
 */
final class HistoryChecker {

	/** Faults after which the store may have forgotten its leases. */
	private static final Set<String> FORGETTING_FAULTS = Set.of("restart", "restart-delayed", "failover");

	private HistoryChecker() {
	}

	static CheckReport check(List<Event> events) {
		History history = History.of(events);
		return new CheckReport(history.leases.size(), history.failures.size(),
				history.writes.stream().filter(History.Write::accepted).count(), overlaps(history),
				acceptedNotAbove(history), refusedWrites(history, false), refusedWrites(history, true),
				tokensBack(history), grantsWhileLive(history, false), grantsWhileLive(history, true),
				heldPastTtl(history), orphanRefusals(history));
	}

	private static List<Overlap> overlaps(History history) {
		List<Overlap> overlaps = new ArrayList<>();
		List<Lease> leases = new ArrayList<>(history.leases);
		leases.sort(Comparator.comparingLong(Lease::granted));
		for (int i = 0; i < leases.size(); i++) {
			Lease first = leases.get(i);
			for (int j = i + 1; j < leases.size() && leases.get(j).granted() < first.releaseRequested(); j++) {
				Lease second = leases.get(j);
				if (second.key().equals(first.key()) && !second.worker().equals(first.worker())) {
					long to = Math.min(first.releaseRequested(), second.releaseRequested());
					overlaps.add(new Overlap(first.key(), first, second,
							explaining(history, second.granted(), to, Set.of())));
				}
			}
		}
		return overlaps;
	}

	@Nullable
	private static FaultWindow explaining(History history, long from, long to, Set<String> only) {
		return history.faults.stream()
			.filter((fault) -> only.isEmpty() || only.contains(fault.fault()))
			.filter((fault) -> fault.explains(from, to, history.longestTtlMicros()))
			.findFirst()
			.orElse(null);
	}

	private static long acceptedNotAbove(History history) {
		Map<String, Long> lastAccepted = new HashMap<>();
		long count = 0;
		for (History.Write write : history.writes) {
			if (!write.accepted()) {
				continue;
			}
			Long last = lastAccepted.put(write.key(), write.token());
			if (write.token() <= write.last() || (last != null && write.token() <= last)) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Refused writes, told apart by the lease that wrote the token which beat them: a newer
	 * lease makes the refused writer stale; an older one means the current holder's token
	 * went back.
	 */
	private static long refusedWrites(History history, boolean currentHolders) {
		long count = 0;
		for (History.Write write : history.writes) {
			if (write.accepted()) {
				continue;
			}
			Lease own = leaseOf(history, write.worker(), write.key(), write.token());
			Lease winner = leaseOfToken(history, write.key(), write.last());
			boolean wentBack = own != null && winner != null && winner.granted() < own.requested();
			if (wentBack == currentHolders) {
				count++;
			}
		}
		return count;
	}

	@Nullable
	private static Lease leaseOf(History history, String worker, String key, long token) {
		return history.leases.stream()
			.filter((lease) -> lease.worker().equals(worker) && lease.key().equals(key) && lease.token() == token)
			.findFirst()
			.orElse(null);
	}

	@Nullable
	private static Lease leaseOfToken(History history, String key, long token) {
		return history.leases.stream()
			.filter((lease) -> lease.key().equals(key) && lease.token() == token)
			.findFirst()
			.orElse(null);
	}

	/**
	 * Grants asked for after an earlier grant of the key was recorded, with a token not above it.
	 */
	private static long tokensBack(History history) {
		long count = 0;
		for (Lease later : history.leases) {
			boolean back = history.leases.stream()
				.anyMatch((earlier) -> earlier.key().equals(later.key()) && earlier.granted() < later.requested()
						&& earlier.token() >= later.token());
			if (back) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Grants that surely happened while another worker's lease was surely live: neither
	 * released nor expired. Only a store that forgot its leases explains one.
	 */
	private static long grantsWhileLive(History history, boolean unexplainedOnly) {
		long count = 0;
		for (Lease later : history.leases) {
			for (Lease earlier : history.leases) {
				if (earlier.key().equals(later.key()) && !earlier.worker().equals(later.worker())
						&& later.requested() >= earlier.granted() && later.granted() <= earlier.surelyLiveUntil()) {
					if (!unexplainedOnly
							|| explaining(history, later.requested(), later.granted(), FORGETTING_FAULTS) == null) {
						count++;
					}
					break;
				}
			}
		}
		return count;
	}

	private static long heldPastTtl(History history) {
		return history.heldAnswers.stream().filter((answer) -> answer.asked() > answer.expiredBy()).count();
	}

	/**
	 * Refusals while no lease, and no failed acquire the store may have granted, could have
	 * held the key.
	 */
	private static long orphanRefusals(History history) {
		long count = 0;
		for (History.Attempt refusal : history.refusals) {
			boolean possiblyHeld = history.leases.stream()
				.anyMatch((lease) -> lease.key().equals(refusal.key()) && lease.requested() <= refusal.to()
						&& lease.releasedBy() >= refusal.from())
					|| history.failures.stream()
						.anyMatch((failure) -> failure.key().equals(refusal.key()) && failure.from() <= refusal.to()
								&& failure.to() >= refusal.from());
			if (!possiblyHeld) {
				count++;
			}
		}
		return count;
	}

}
