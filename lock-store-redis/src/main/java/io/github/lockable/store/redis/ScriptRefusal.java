package io.github.lockable.store.redis;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockStoreException;

/**
 * Whether the server refuses the store's scripts, as the last probe or script call found.
 * Release and extend are scripts, so while they are refused no acquire is sent: a lock
 * taken by the plain {@code SET} could not be released and would stay for its whole TTL,
 * a phantom holder for every later caller. Each acquire fails at once instead, coded
 * {@value #CODE}, and the health is {@code DOWN} with the same reason.
 * <p>
 * Set by a probe whose script was refused ({@link RedisServerProbe}, at startup and on
 * each health check) and by a script call the server refused by its ACL at runtime
 * ({@link CallFailures#ofScript}); cleared by a probe whose script ran: a health check, or
 * the re-check that refused acquires start at most once a second.
 */
final class ScriptRefusal {

	/** The code of an acquire refused because the scripts are. */
	static final String CODE = "SCRIPTS_REFUSED";

	private static final Logger logger = LoggerFactory.getLogger(RedisLockStore.class);

	private static final long RECHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** What to tell the operator while the scripts are refused, else null. */
	private volatile @Nullable String reason;

	/** When the next re-check may start ({@link System#nanoTime()}). */
	private final AtomicLong nextRecheck = new AtomicLong(System.nanoTime());

	/**
	 * The problem a refused script is, and what to do.
	 * @param serverSaid the server's error answer
	 * @return the text the startup ERROR, the health's reason and every refused acquire give
	 */
	static String problem(@Nullable String serverSaid) {
		return "Redis refused Lockable's Lua script (" + serverSaid + "): every lock call will fail until it may run. "
				+ "Grant the ACL user +evalsha +eval and the commands the scripts run (+set +get +del +time +pttl "
				+ "+pexpire, and +spublish or on Redis 6.2 +publish; +info with lockable.redis.lock-delay) on its "
				+ "keys, as the least privilege section of docs/operating.md shows, and keep scripting enabled on "
				+ "the server";
	}

	/**
	 * Why the scripts are refused.
	 * @return the {@link #problem(String)}, or null when they may run
	 */
	@Nullable String reason() {
		return this.reason;
	}

	/**
	 * Why an acquire must not be sent now.
	 * @return the failure to answer it with, or null when the scripts may run
	 */
	@Nullable LockStoreException failure() {
		String refused = this.reason;
		return (refused != null) ? new LockStoreException(refused, CODE, null) : null;
	}

	/**
	 * Whether a refused acquire has the probe's script run again: at most once a second.
	 * @return whether to re-check now; true for one caller only
	 */
	boolean recheckDue() {
		long now = System.nanoTime();
		long due = this.nextRecheck.get();
		return now - due >= 0 && this.nextRecheck.compareAndSet(due, now + RECHECK_INTERVAL_NANOS);
	}

	/**
	 * A probe's script was refused.
	 * @param problem the probe's {@link #problem(String)}
	 */
	void refused(String problem) {
		this.reason = problem;
	}

	/**
	 * A probe's script ran: acquires are sent again.
	 */
	void allowed() {
		this.reason = null;
	}

	/**
	 * A script call failed: if the server refused it by its ACL, acquires are refused from
	 * now on, said in an ERROR when they were not.
	 * @param ex the failure, unwrapped
	 * @return the refusal, or null when the failure is no refusal
	 */
	@Nullable LockStoreException refusedBy(Throwable ex) {
		if (!(ex instanceof RedisCommandExecutionException) || !isAclRefusal(ex.getMessage())) {
			return null;
		}
		String problem = problem(ex.getMessage());
		boolean wasAllowed = this.reason == null;
		this.reason = problem;
		if (wasAllowed) {
			logger.error("{}", problem);
		}
		return new LockStoreException(problem, CODE, ex);
	}

	/**
	 * Redis's answers to a script its ACL refuses: {@code NOPERM} for EVALSHA or EVAL
	 * themselves, or a key the user may not touch; for a command inside the script
	 * {@code ERR ACL failure in script: ...} (Redis 7, Valkey) or
	 * {@code ERR Error running script ... The user executing the script can't ...} (6.2).
	 */
	private static boolean isAclRefusal(@Nullable String message) {
		return message != null && (message.startsWith("NOPERM") || message.contains("ACL failure in script")
				|| message.contains("The user executing the script can't"));
	}

}
