package io.github.lockable.store.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.api.async.RedisServerAsyncCommands;
import org.jspecify.annotations.Nullable;

/**
 * What server a connection of the store reached, and whether it has sharded pub/sub
 * ({@code SPUBLISH}, {@code SSUBSCRIBE}: Redis 7 and later, Valkey): asked once, when the
 * connection opens, so that no call has to find out for itself. Without sharded pub/sub
 * the release script publishes, and waiters subscribe, the classic way.
 * <p>
 * {@code COMMAND INFO SPUBLISH} decides, as it also sees a command renamed away
 * ({@code rename-command SPUBLISH ""}); where an ACL refuses it, the version does.
 * {@code INFO server} names the server: Valkey says {@code server_name:valkey} and
 * {@code valkey_version}, and gives a {@code redis_version} of 7.2.4 for compatibility;
 * Redis before 7.2 has no {@code server_name}.
 *
 * @param name {@code redis}, {@code valkey}, or what else {@code server_name} says
 * @param version the server's own version, {@code unknown} when INFO was refused
 * @param sharded whether the server has sharded pub/sub; assumed when it cannot tell
 */
record RedisServerFeatures(String name, String version, boolean sharded) {

	/** What is assumed of a server that answers neither question. */
	static final RedisServerFeatures ASSUMED = new RedisServerFeatures("redis", "unknown", true);

	/**
	 * Asks the server both questions at once.
	 * @param commands a connection's commands (on a Cluster, any node answers)
	 * @return the features; never completes exceptionally
	 */
	static CompletableFuture<RedisServerFeatures> detect(RedisServerAsyncCommands<?, ?> commands) {
		CompletableFuture<@Nullable String> info = orNull(commands.info("server").toCompletableFuture());
		CompletableFuture<@Nullable List<Object>> spublish = orNull(
				commands.commandInfo("SPUBLISH").toCompletableFuture());
		return info.thenCombine(spublish, RedisServerFeatures::of);
	}

	/**
	 * Reads the answers.
	 * @param info the answer to {@code INFO server}, or null when refused
	 * @param spublish the answer to {@code COMMAND INFO SPUBLISH}, or null when refused
	 * @return the features
	 */
	static RedisServerFeatures of(@Nullable String info, @Nullable List<Object> spublish) {
		String compatible = (info != null) ? field(info, "redis_version") : null;
		String name = (info != null) ? field(info, "server_name") : null;
		String own = (name != null) ? field(info, name + "_version") : null;
		String version = (own != null) ? own : (compatible != null) ? compatible : ASSUMED.version();
		boolean sharded = (spublish != null) ? !spublish.isEmpty() && spublish.get(0) != null
				: (compatible == null) || major(compatible) >= 7;
		return new RedisServerFeatures((name != null) ? name : "redis", version, sharded);
	}

	/**
	 * How the store's wake-ups go on this server, for a log line.
	 * @return the server and its pub/sub, such as {@code valkey 8.0.1, sharded pub/sub}
	 */
	@Override
	public String toString() {
		return this.name + " " + this.version + ", "
				+ (this.sharded ? "sharded pub/sub (SPUBLISH)" : "classic pub/sub (PUBLISH), as it has no SPUBLISH");
	}

	private static int major(String version) {
		int dot = version.indexOf('.');
		try {
			return Integer.parseInt((dot < 0) ? version : version.substring(0, dot));
		}
		catch (NumberFormatException ex) {
			return Integer.MAX_VALUE;
		}
	}

	private static @Nullable String field(String info, String name) {
		String prefix = name + ":";
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(prefix)) {
				return line.substring(prefix.length()).trim();
			}
		}
		return null;
	}

	private static <T> CompletableFuture<@Nullable T> orNull(CompletableFuture<T> answer) {
		return answer.handle((value, ex) -> (ex != null) ? null : value);
	}

}
