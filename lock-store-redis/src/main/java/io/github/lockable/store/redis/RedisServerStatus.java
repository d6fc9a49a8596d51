package io.github.lockable.store.redis;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a probe of the Redis server found, for a health report: whether the store can lock
 * there, and what can take its locks away.
 *
 * @param maxmemoryPolicy the server's {@code maxmemory-policy} (on a Cluster, the first
 * master's that allows eviction, else the first master's), or {@code null} when
 * {@code INFO} was refused or did not answer
 * @param role {@code master} or {@code slave} ({@code INFO replication}), or {@code null}
 * when unknown; on a Cluster always {@code master}, as the store writes to masters only
 * @param scripts {@code allowed} when the server ran the store's Lua script,
 * {@code refused} when it refused it, {@code null} when it did not answer
 * @param warning what can take locks away while the store works, such as an eviction
 * policy that evicts them, or {@code null}
 * @param problem why every lock call fails (a read-only replica, a refused script), or
 * {@code null} when the store can lock
 */
record RedisServerStatus(@Nullable String maxmemoryPolicy, @Nullable String role, @Nullable String scripts,
		@Nullable String warning, @Nullable String problem) {

	/**
	 * Whether the store can take locks on this server.
	 * @return whether there is no problem
	 */
	public boolean isUsable() {
		return this.problem == null;
	}

	/**
	 * The details a health report shows: {@code maxmemoryPolicy}, {@code role} and
	 * {@code scripts} ({@code unknown} where the probe could not tell), then
	 * {@code warning} and {@code reason} where there are any.
	 * @return the details, in that order
	 */
	public Map<String, Object> details() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("maxmemoryPolicy", (this.maxmemoryPolicy != null) ? this.maxmemoryPolicy : "unknown");
		details.put("role", (this.role != null) ? this.role : "unknown");
		details.put("scripts", (this.scripts != null) ? this.scripts : "unknown");
		if (this.warning != null) {
			details.put("warning", this.warning);
		}
		if (this.problem != null) {
			details.put("reason", this.problem);
		}
		return details;
	}

}
