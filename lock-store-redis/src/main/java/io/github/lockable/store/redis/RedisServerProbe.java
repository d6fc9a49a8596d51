package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the server, with commands managed services allow ({@code INFO} and one script call,
 * never {@code CONFIG}), what decides whether its locks hold: an eviction policy that can
 * evict lock keys or fencing counters, a read-only replica, a user or server that refuses
 * the store's scripts. Said once when the store first connects, in the health details, and
 * again when a lock is found gone while Redis evicted keys since the last look. Refused
 * scripts make the store refuse acquires until a probe's script runs ({@link ScriptRefusal}).
 * <p>
 * The script is the release script on {@link #PROBE_KEY}, which never exists: it reads the
 * key and returns, writing nothing. On a Cluster, {@code INFO} goes to every master, and the
 * script to the master of the probe key's slot.
 */
final class RedisServerProbe {

	private static final Logger logger = LoggerFactory.getLogger(RedisLockStore.class);

	/**
	 * A key no lock and no fencing counter can have: lock keys have no braces (the key rule),
	 * counters have a tag of one to three characters. It lies under the counters' pattern
	 * ({@code ~lockable:fence:*}) that the README's least-privilege user may read.
	 */
	static final byte[] PROBE_KEY = "lockable:fence:{probe}".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] PROBE_TOKEN = "probe".getBytes(StandardCharsets.US_ASCII);

	private final long timeoutNanos;

	/** The last policy seen that lets Redis evict lock keys, else null. */
	private volatile @Nullable String evictingPolicy;

	/** {@code evicted_keys} at the last look, -1 before the first. */
	private final AtomicLong evictedKeys = new AtomicLong(-1);

	private final AtomicBoolean lookingAtEvictions = new AtomicBoolean();

	/** Why the last probe's INFO was refused, else null. */
	private volatile @Nullable String infoRefused;

	private final ScriptRefusal refusal;

	/**
	 * @param timeout the store's timeout, for each command of a probe
	 * @param refusal told whether the probe's script ran
	 */
	RedisServerProbe(Duration timeout, ScriptRefusal refusal) {
		this.timeoutNanos = timeout.toNanos();
		this.refusal = refusal;
	}

	/**
	 * Probes the server the connection lands on, and on a Cluster every master.
	 * @param connection an open connection
	 * @return the status; never completes exceptionally
	 */
	CompletableFuture<RedisServerStatus> probe(NativeConnection connection) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands();
		boolean cluster = commands instanceof RedisAdvancedClusterAsyncCommands;
		CompletableFuture<Reply<List<String>>> memory = reply(info(commands, "memory"));
		CompletableFuture<Reply<List<String>>> replication = cluster
				? CompletableFuture.completedFuture(new Reply<>(List.of("role:master"), null))
				: reply(info(commands, "replication"));
		CompletableFuture<Reply<Long>> script = reply(runScript(commands, LockScript.RELEASE.on(connection.server())));
		CompletableFuture<Reply<List<String>>> stats = reply(info(commands, "stats"));
		return CompletableFuture.allOf(memory, replication, script, stats).thenApply((done) -> {
			this.evictedKeys.compareAndSet(-1, evictedKeys(stats.join()));
			return status(memory.join(), replication.join(), script.join());
		});
	}

	/**
	 * Probes and logs what is wrong: a WARN for eviction, an ERROR for a replica or refused
	 * scripts.
	 * @param connection the store's first connection
	 */
	void probeAtStartup(NativeConnection connection) {
		logger.info("Redis lock store on {}", connection.server());
		probe(connection).thenAccept(this::report);
	}

	private void report(RedisServerStatus status) {
		if (status.warning() != null) {
			logger.warn("{}", status.warning());
		}
		if (status.problem() != null) {
			logger.error("{}", status.problem());
		}
		String refused = this.infoRefused;
		if (refused != null) {
			logger.info("Redis refused INFO ({}), so Lockable cannot tell whether Redis may evict its locks or is "
					+ "a read-only replica; grant the ACL user +info to let it check", refused);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Redis lock store probe: {}", status.details());
		}
	}

	/**
	 * A lock was found gone: if Redis evicted keys since the last look, say so. Only on
	 * this path, and one look at a time, so that locking pays nothing for it.
	 * @param connection the store's connection, or null when none is open
	 */
	void lockFoundGone(@Nullable NativeConnection connection) {
		if (connection == null || !this.lookingAtEvictions.compareAndSet(false, true)) {
			return;
		}
		reply(info(connection.commands(), "stats")).thenAccept((stats) -> {
			this.lookingAtEvictions.set(false);
			long now = evictedKeys(stats);
			if (now < 0) {
				return;
			}
			long before = this.evictedKeys.getAndSet(now);
			if (before >= 0 && now > before) {
				String policy = this.evictingPolicy;
				logger.warn("A lock of this instance was found gone, and Redis evicted {} keys since Lockable last "
						+ "looked (maxmemory-policy {}): an evicted lock lets a second caller in while the first "
						+ "still runs. Set maxmemory-policy noeviction, or keep the locks in a Redis of their own "
						+ "that does not evict", now - before, (policy != null) ? policy : "unknown");
			}
		});
	}

	/**
	 * An acquire was refused for refused scripts: runs the probe's script again in the
	 * background, at most once a second, on a connection opened if none is, so that
	 * acquires are sent again once the server allows it, with or without health checks.
	 * @param connections the store's connection
	 */
	void recheckScripts(RedisConnections connections) {
		if (!this.refusal.recheckDue()) {
			return;
		}
		NativeConnection current = connections.current();
		((current != null) ? CompletableFuture.completedFuture(current) : connections.opening()).thenAccept(
				(connection) -> reply(runScript(connection.commands(), LockScript.RELEASE.on(connection.server())))
					.thenAccept(this::scripts));
	}

	/**
	 * Tells the refusal what the probe's script found.
	 * @return the problem when the script was refused, or gave no answer after a refusal;
	 * null when it ran
	 */
	private @Nullable String scripts(Reply<Long> script) {
		if (script.value() != null) {
			this.refusal.allowed();
			return null;
		}
		if (script.error() instanceof RedisCommandExecutionException refused) {
			this.refusal.refused(ScriptRefusal.problem(refused.getMessage()));
		}
		return this.refusal.reason();
	}

	/**
	 * What can take a lock away early, as far as the last probe saw.
	 * @return a clause naming the eviction policy, or null when it evicts no lock
	 */
	@Nullable String earlyLossCause() {
		String policy = this.evictingPolicy;
		return (policy != null) ? "Redis's maxmemory-policy " + policy + " evicts lock keys under memory pressure"
				: null;
	}

	private RedisServerStatus status(Reply<List<String>> memory, Reply<List<String>> replication,
			Reply<Long> script) {
		String policy = policy(memory);
		this.infoRefused = (memory.error() instanceof RedisCommandExecutionException refused) ? refused.getMessage()
				: null;
		this.evictingPolicy = (policy != null && !"noeviction".equals(policy)) ? policy : null;
		String role = (replication.value() != null) ? field(replication.value().get(0), "role") : null;
		String refused = scripts(script);
		String scripts = (script.value() != null) ? "allowed" : (refused != null) ? "refused" : null;
		List<String> problems = new ArrayList<>();
		if ("slave".equals(role)) {
			problems.add("Redis answers as a replica (role:slave), which is read-only: every lock call will fail "
					+ "(503 with lockable.store-failure=fail) until spring.data.redis points at the primary, or at "
					+ "the Sentinels (spring.data.redis.sentinel.*) that name it");
		}
		if (refused != null) {
			problems.add(refused);
		}
		return new RedisServerStatus(policy, role, scripts, evictionWarning(policy),
				problems.isEmpty() ? null : String.join("; ", problems));
	}

	private static @Nullable String evictionWarning(@Nullable String policy) {
		if (policy == null || "noeviction".equals(policy)) {
			return null;
		}
		String what = policy.startsWith("volatile-")
				? "it evicts keys that have a TTL, and every lock key has one"
				: "it evicts any key: lock keys, and the fencing counters lockable:fence:*, whose loss lets "
						+ "fencing tokens start again at 1";
		return "Redis's maxmemory-policy is " + policy + ": under memory pressure " + what + ", so a held lock can "
				+ "vanish and let a second caller in while the first still runs. Set maxmemory-policy noeviction "
				+ "(on a managed service, in its parameter group or configuration), or keep the locks in a Redis of "
				+ "their own with noeviction";
	}

	/** The first policy that allows eviction, else the first one read. */
	private static @Nullable String policy(Reply<List<String>> memory) {
		if (memory.value() == null) {
			return null;
		}
		String first = null;
		for (String info : memory.value()) {
			String policy = field(info, "maxmemory_policy");
			if (policy != null && !"noeviction".equals(policy)) {
				return policy;
			}
			first = (first != null) ? first : policy;
		}
		return first;
	}

	/** The sum over the masters, -1 when unknown. */
	private static long evictedKeys(Reply<List<String>> stats) {
		if (stats.value() == null) {
			return -1;
		}
		long sum = 0;
		for (String info : stats.value()) {
			String value = field(info, "evicted_keys");
			if (value == null) {
				return -1;
			}
			try {
				sum += Long.parseLong(value);
			}
			catch (NumberFormatException ex) {
				return -1;
			}
		}
		return sum;
	}

	private static @Nullable String field(String info, String name) {
		String prefix = name + ":";
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(prefix)) {
				return line.substring(prefix.length()).trim().toLowerCase(Locale.ROOT);
			}
		}
		return null;
	}

	private static CompletableFuture<List<String>> info(RedisClusterAsyncCommands<byte[], byte[]> commands,
			String section) {
		if (commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
			return cluster.masters().commands().info(section).toCompletableFuture();
		}
		return commands.info(section).toCompletableFuture().thenApply(List::of);
	}

	private static CompletableFuture<Long> runScript(RedisClusterAsyncCommands<byte[], byte[]> commands,
			LockScript script) {
		byte[][] keys = { PROBE_KEY };
		return commands.<Long>evalsha(script.sha1(), ScriptOutputType.INTEGER, keys, PROBE_TOKEN)
			.toCompletableFuture()
			.exceptionallyCompose((ex) -> (unwrap(ex) instanceof RedisNoScriptException)
					? commands.<Long>eval(script.source(), ScriptOutputType.INTEGER, keys, PROBE_TOKEN)
						.toCompletableFuture()
					: CompletableFuture.failedFuture(ex));
	}

	private <T> CompletableFuture<Reply<T>> reply(CompletableFuture<T> future) {
		return future.orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS)
			.handle((value, ex) -> (ex != null) ? new Reply<T>(null, unwrap(ex)) : new Reply<>(value, null));
	}

	private static Throwable unwrap(Throwable ex) {
		return (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
	}

	private record Reply<T>(@Nullable T value, @Nullable Throwable error) {
	}

}
