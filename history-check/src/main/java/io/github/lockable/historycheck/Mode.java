package io.github.lockable.historycheck;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A run's mode: which fault the driver injects, how the workers are configured, and what
 * the checker's report must show for the run to pass.
 */
enum Mode {

	/** No fault: no overlap, no grant while a lease is live, no orphan lock. */
	NONE,

	/** A worker holding a lock is frozen (SIGSTOP) longer than the TTL, then thawed. */
	PAUSE,

	/** The lock Redis restarts without persistence: it forgets every lease and counter. */
	RESTART,

	/**
	 * As {@link #RESTART}, the workers with {@code lockable.redis.lock-delay} at the TTL: no
	 * overlap and no grant while an earlier lease is live; refusals while nobody holds a key
	 * are what the delay costs.
	 */
	RESTART_DELAYED,

	/** {@code CLIENT PAUSE} on the lock Redis, shorter than Lettuce's command timeout. */
	CLIENT_PAUSE,

	/** The connections between the workers and the lock Redis go half open, then heal. */
	NETWORK,

	/** {@code CLIENT PAUSE} on the lock Redis, longer than Lettuce's command timeout. */
	LETTUCE_TIMEOUT,

	/** A Sentinel failover ({@code SENTINEL FAILOVER}) of the lock Redis to its replica. */
	FAILOVER,

	/** The negative control: workers without locks; the checker must fail it. */
	CONTROL;

	static final Duration TTL = Duration.ofSeconds(2);

	static Mode named(String name) {
		return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
	}

	String displayName() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	boolean locked() {
		return this != CONTROL;
	}

	boolean sentinel() {
		return this == FAILOVER;
	}

	boolean throughProxy() {
		return this == NETWORK;
	}

	/**
	 * How long a worker holds each lock: long enough in the restart mode that a restart finds
	 * holders, whose keys the emptied store grants again at once (what lock-delay prevents).
	 */
	Duration hold() {
		return (this == RESTART || this == RESTART_DELAYED) ? Duration.ofMillis(400) : Duration.ofMillis(60);
	}

	/**
	 * The workers' {@code lockable.redis.lock-delay}: the TTL in {@link #RESTART_DELAYED}, else none.
	 */
	Duration lockDelay() {
		return (this == RESTART_DELAYED) ? TTL : Duration.ZERO;
	}

	/**
	 * Lettuce's command timeout for the workers.
	 */
	Duration redisTimeout() {
		return (this == LETTUCE_TIMEOUT) ? Duration.ofMillis(250) : Duration.ofSeconds(3);
	}

	/**
	 * The rules the report breaks for this mode; a run passes when there are none. The
	 * control passes the checker only if locks were never needed, so its rules are the
	 * ones of a locked run: it must break them.
	 */
	List<String> brokenRules(CheckReport report) {
		List<String> broken = new java.util.ArrayList<>(report.brokenSafetyRules());
		if (this == NONE || this == RESTART_DELAYED) {
			if (!report.overlaps().isEmpty()) {
				broken.add(report.overlaps().size() + " overlapping holders" + ((this == NONE) ? " without a fault"
						: " despite the lock-delay"));
			}
			if (report.grantsWhileLive() != 0) {
				broken.add(report.grantsWhileLive() + " grants while an earlier lease was surely live");
			}
			if (this == NONE && report.orphanRefusals() != 0) {
				broken.add(report.orphanRefusals() + " refusals while nobody held the key");
			}
		}
		return broken;
	}

	/**
	 * Whether the checker's verdict is the one this mode expects: pass, or fail for the control.
	 */
	boolean expected(List<String> brokenRules) {
		return (this == CONTROL) != brokenRules.isEmpty();
	}

}
