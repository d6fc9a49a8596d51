package io.github.lockable.test.redis;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * How many times Redis ran commands, from {@code INFO commandstats}: what reached the
 * server, counted by the server.
 */
public final class CommandStats {

	private CommandStats() {
	}

	/**
	 * The calls of the given commands so far, summed over the commands and the masters.
	 * @param redis the deployment
	 * @param commands lower-case command names, such as {@code evalsha} and {@code eval}
	 * @return how many times the masters ran one of them
	 */
	public static long calls(RedisTopology redis, String... commands) {
		long calls = 0;
		for (RedisCommands<String, String> master : redis.masters()) {
			String stats = master.info("commandstats");
			for (String command : commands) {
				Matcher matcher = Pattern.compile("^cmdstat_" + command + ":calls=(\\d+)", Pattern.MULTILINE)
					.matcher(stats);
				calls += matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
			}
		}
		return calls;
	}

}
