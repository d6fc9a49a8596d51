package io.github.lockable.historycheck;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The fenced resource and the history's recorder, on a Redis server of its own: a write for
 * a key is accepted only if its token is greater than the last one accepted, and every event
 * is appended to one list, stamped with that server's {@code TIME}, so that all histories are
 * ordered by one clock.
 */
final class FencedResource implements AutoCloseable {

	static final String HISTORY = "history";

	static final String STATE = "state";

	static final String STOP = "stop";

	// Tokens compared as decimal strings (no leading zeros): exact beyond Lua's 2^53 doubles.
	private static final String STAMP = """
			local t = redis.call('TIME')
			local now = t[1] .. string.format('%06d', tonumber(t[2]))
			""";

	private static final String RECORD = STAMP + """
			redis.call('RPUSH', KEYS[1], now .. '|' .. ARGV[1] .. '|' .. ARGV[2] .. '|' .. ARGV[3] .. '|'
			  .. ARGV[4] .. '|0|' .. ARGV[5])
			redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
			return 1
			""";

	private static final String WRITE = STAMP + """
			local last = redis.call('GET', KEYS[1]) or '0'
			local token = ARGV[3]
			local greater = #token > #last or (#token == #last and token > last)
			local type = 'write-refused'
			if greater then
			  redis.call('SET', KEYS[1], token)
			  type = 'write-accepted'
			end
			redis.call('RPUSH', KEYS[2], now .. '|' .. ARGV[1] .. '|' .. type .. '|' .. ARGV[2] .. '|'
			  .. token .. '|' .. last .. '|')
			redis.call('HSET', KEYS[3], ARGV[1], type)
			if greater then return 1 end
			return 0
			""";

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisCommands<String, String> commands;

	FencedResource(String host, int port) {
		RedisURI uri = RedisURI.create(host, port);
		uri.setTimeout(Duration.ofSeconds(10));
		this.client = RedisClient.create(uri);
		this.connection = this.client.connect();
		this.commands = this.connection.sync();
	}

	/**
	 * Records an event.
	 */
	void record(String actor, String type, String key, long token, String extra) {
		this.commands.eval(RECORD, ScriptOutputType.INTEGER, new String[] { HISTORY, STATE }, actor, type, key,
				Long.toString(token), extra);
	}

	/**
	 * Writes to the fenced resource with a fencing token, and records whether it was accepted.
	 * @return whether the resource accepted the write
	 */
	boolean write(String actor, String key, long token) {
		Long accepted = this.commands.eval(WRITE, ScriptOutputType.INTEGER,
				new String[] { "fence:" + key, HISTORY, STATE }, actor, key, Long.toString(token));
		return accepted != null && accepted == 1;
	}

	/**
	 * The last event type of an actor, to find a worker that holds a lock.
	 */
	String state(String actor) {
		return this.commands.hget(STATE, actor);
	}

	boolean stopRequested() {
		return this.commands.exists(STOP) > 0;
	}

	void requestStop() {
		this.commands.set(STOP, "1");
	}

	List<Event> history() {
		return this.commands.lrange(HISTORY, 0, -1).stream().map(Event::parse).toList();
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
