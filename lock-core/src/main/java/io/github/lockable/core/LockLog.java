package io.github.lockable.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockStoreException;

/**
 * One log event per lock attempt, on the {@value #CATEGORY} logger, with structured fields
 * (SLF4J key-value pairs, shown by Spring Boot's structured logging) and the same facts in
 * the message for plain-text logs: {@code lock.method}, {@code lock.key}, {@code lock.store},
 * {@code lock.acquired}, {@code lock.age_ms} (of a lock found held, where the store knows
 * it), {@code lock.ttl_left_ms}, {@code lock.pid}, {@code lock.exit} ({@code ok},
 * {@code error}, {@code cancelled}, {@code skipped}, {@code conflict}, {@code not-run},
 * {@code unlocked}), {@code lock.held_ms} and {@code lock.error_code}. Never a token, never
 * a raw argument.
 * <p>
 * Levels: a store failure is an ERROR and an invalid key a WARN; a skip is an INFO. Every
 * attempt of a {@link ConflictPolicy#SKIP} method, the policy of scheduled and batch jobs,
 * is logged at INFO; other attempts (request handlers) at DEBUG, so the hot path pays
 * nothing unless asked.
 * <p>
 * The warnings of a release (a lock found lost, a holder close to its TTL, a store that did
 * not answer) go to the {@link LockManager} logger, and a failed renewal to the
 * {@link LockRenewals} one, at DEBUG. This is the log adapter of {@link LockEvents}, which
 * alone calls it.
 */
final class LockLog {

	static final String CATEGORY = "io.github.lockable.attempt";

	private static final Logger logger = LoggerFactory.getLogger(CATEGORY);

	private static final Logger releases = LoggerFactory.getLogger(LockManager.class);

	private static final Logger renewals = LoggerFactory.getLogger(LockRenewals.class);

	private static final long PID = ProcessHandle.current().pid();

	private LockLog() {
	}

	static boolean isFinishLogged(LockOperation method) {
		return logger.isEnabledForLevel(routineLevel(method));
	}

	/** The method ran under the lock and the lock was released. */
	static void finished(LockOperation method, String key, String store, Duration held, @Nullable Throwable error,
			boolean cancelled) {
		Level level = routineLevel(method);
		if (!logger.isEnabledForLevel(level)) {
			return;
		}
		String exit = cancelled ? "cancelled" : (error != null) ? "error" : "ok";
		LoggingEventBuilder event = common(logger.atLevel(level), method, key, store).addKeyValue("lock.acquired", true)
			.addKeyValue("lock.exit", exit)
			.addKeyValue("lock.held_ms", held.toMillis());
		if (error != null && !cancelled) {
			event = event.addKeyValue("lock.error_code", error.getClass().getSimpleName());
		}
		event.log("{}: lock {} acquired on {}, exit {} after {}ms{}", method.description(), key, store, exit,
				held.toMillis(), (error != null && !cancelled) ? " (" + error.getClass().getSimpleName() + ")" : "");
	}

	/** A renewal found the lock lost while the method still ran: another caller may be in. */
	static void lost(LockOperation method, String key, String store, Duration held, String cause) {
		common(logger.atWarn(), method, key, store).addKeyValue("lock.acquired", true)
			.addKeyValue("lock.exit", "lost")
			.addKeyValue("lock.held_ms", held.toMillis())
			.log("{}: lock {} on {} was lost after {}ms while its holder still runs: it {}; another caller may "
					+ "run at the same time", method.description(), key, store, held.toMillis(), cause);
	}

	/**
	 * The release could not run on the caller's thread and ran on another: said at ERROR,
	 * as the error that prevented it usually ends the caller too.
	 */
	static void releaseHandedOff(LockOperation method, String key, String store, Throwable releaseError,
			@Nullable Throwable error) {
		common(logger.atError(), method, key, store).addKeyValue("lock.acquired", true)
			.addKeyValue("lock.exit", "error")
			.addKeyValue("lock.error_code", releaseError.getClass().getSimpleName())
			.log("{}: lock {} on {} could not be released on the caller's thread ({}{}); it was released on "
					+ "thread {} instead", method.description(), key, store, releaseError.getClass().getSimpleName(),
					(error != null) ? ", the method threw " + error.getClass().getSimpleName() : "",
					Thread.currentThread().getName());
	}

	/**
	 * A release found the lock gone: another caller may have run at the same time.
	 * @param cause why it was gone, from {@link LockLoss#atRelease}
	 */
	static void releaseFoundLost(LockLease lease, String cause) {
		releases.warn("Lock {} {}; another caller may have run at the same time", lease.key(), cause);
	}

	/** A holder ran longer than the warning share of its TTL. */
	static void ttlNearlyExhausted(LockLease lease, Duration held, double ttlWarningRatio) {
		releases.warn("Lock {} was held {}ms, more than {}% of its TTL {}ms: raise the TTL or shorten the work",
				lease.key(), held.toMillis(), Math.round(ttlWarningRatio * 100), lease.ttl().toMillis());
	}

	/** The store did not answer a release: the lock runs out with its TTL. */
	static void releaseFailed(LockLease lease, Duration held, Throwable cause) {
		releases.warn("Failed to release lock {} after {}ms; it runs out with its TTL {}ms: {}", lease.key(),
				held.toMillis(), lease.ttl().toMillis(), cause.getMessage());
		releases.debug("Release failure", cause);
	}

	/** The store did not answer a renewal, which is retried. */
	static void renewalFailed(LockLease lease, Throwable error) {
		renewals.debug("Renewal of lock {} failed; retrying", lease.key(), error);
	}

	/** The lock was held and the policy is SKIP. */
	static void skipped(LockOperation method, String key, String store, AcquireResult.Held held) {
		if (logger.isInfoEnabled()) {
			held(logger.atInfo(), method, key, store, held, "skipped")
				.log("{} skipped: already running (lock {} on {}{}{})", method.description(), key, store,
						(held.age() != null) ? ", held for " + held.age().toMillis() + "ms" : "",
						(held.remainingTtl() != null) ? ", " + held.remainingTtl().toMillis() + "ms of TTL left" : "");
		}
	}

	/** The lock was held and the caller gets a conflict. */
	static void conflicted(LockOperation method, String key, String store, AcquireResult.Held held) {
		Level level = routineLevel(method);
		if (logger.isEnabledForLevel(level)) {
			held(logger.atLevel(level), method, key, store, held, "conflict")
				.log("{} not run: lock {} on {} is held ({})", method.description(), key, store,
						method.conflictPolicy());
		}
	}

	/**
	 * The store did not answer; the method runs unlocked or not at all. The first failure of
	 * an outage is an ERROR with its cause; later ones are summarized once per interval.
	 */
	static void storeFailed(LockOperation method, String key, String store, LockStoreException cause,
			boolean proceeding, OutageLogThrottle.Report report) {
		String outcome = proceeding ? "runs without a lock (lockable.store-failure=proceed)" : "not run";
		if (report.isFirst()) {
			common(logger.atError(), method, key, store).addKeyValue("lock.acquired", false)
				.addKeyValue("lock.exit", proceeding ? "unlocked" : "not-run")
				.addKeyValue("lock.error_code", cause.getCode())
				.log("{} {}: lock store {} failed to acquire {} ({}: {}); repeats are summarized every {}s until "
						+ "the store answers", method.description(), outcome, store, key, cause.getCode(),
						cause.getMessage(), OutageLogThrottle.DEFAULT_SUMMARY_INTERVAL.toSeconds());
		}
		else if (report.isSummary()) {
			int repeats = report.codes().values().stream().mapToInt(Integer::intValue).sum();
			logger.atError()
				.addKeyValue("lock.method", method.description())
				.addKeyValue("lock.store", store)
				.addKeyValue("lock.pid", PID)
				.addKeyValue("lock.acquired", false)
				.addKeyValue("lock.exit", proceeding ? "unlocked" : "not-run")
				.addKeyValue("lock.error_code", String.join(",", report.codes().keySet()))
				.log("{} {} {} more times in the last {}s: lock store {} still failing ({}); {} failures since "
						+ "the outage began", method.description(), outcome, repeats, report.since().toSeconds(),
						store, report.codes(), report.failures());
		}
	}

	/** The store answered again after failures. */
	static void storeRecovered(LockOperation method, String store, long failures) {
		logger.atInfo()
			.addKeyValue("lock.method", method.description())
			.addKeyValue("lock.store", store)
			.addKeyValue("lock.pid", PID)
			.log("{}: lock store {} answers again after {} failed attempts", method.description(), store, failures);
	}

	/** The resolver's key broke the key rules; the message does not contain the value. */
	static void invalidKey(LockOperation method, InvalidLockKeyException ex) {
		logger.atWarn()
			.addKeyValue("lock.method", method.description())
			.addKeyValue("lock.acquired", false)
			.addKeyValue("lock.pid", PID)
			.addKeyValue("lock.exit", "not-run")
			.addKeyValue("lock.error_code", "INVALID_KEY")
			.log("{} not run: {}", method.description(), ex.getMessage());
	}

	private static LoggingEventBuilder held(LoggingEventBuilder builder, LockOperation method, String key,
			String store, AcquireResult.Held held, String exit) {
		LoggingEventBuilder event = common(builder, method, key, store).addKeyValue("lock.acquired", false)
			.addKeyValue("lock.exit", exit);
		if (held.age() != null) {
			event = event.addKeyValue("lock.age_ms", held.age().toMillis());
		}
		if (held.remainingTtl() != null) {
			event = event.addKeyValue("lock.ttl_left_ms", held.remainingTtl().toMillis());
		}
		return event;
	}

	private static LoggingEventBuilder common(LoggingEventBuilder builder, LockOperation method, String key,
			String store) {
		return builder.addKeyValue("lock.method", method.description())
			.addKeyValue("lock.key", key)
			.addKeyValue("lock.store", store)
			.addKeyValue("lock.pid", PID);
	}

	private static Level routineLevel(LockOperation method) {
		return (method.conflictPolicy() == ConflictPolicy.SKIP) ? Level.INFO : Level.DEBUG;
	}

}
