package io.github.lockable.test.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;

/**
 * The harness's admin connections to single processes of a topology, one per port,
 * opened on first use and again after they dropped. Never routed: a cluster node answers
 * MOVED for a slot it does not serve.
 */
final class NodeConnections implements AutoCloseable {

	private final RedisClient client = RedisClient.create();

	private final Map<Integer, StatefulRedisConnection<String, String>> nodes = new HashMap<>();

	private final Map<Integer, StatefulRedisSentinelConnection<String, String>> sentinels = new HashMap<>();

	synchronized RedisCommands<String, String> node(int port) {
		StatefulRedisConnection<String, String> connection = this.nodes.get(port);
		if (connection == null || !connection.isOpen()) {
			connection = this.client.connect(uri(port));
			this.nodes.put(port, connection);
		}
		return connection.sync();
	}

	synchronized RedisSentinelCommands<String, String> sentinel(int port) {
		StatefulRedisSentinelConnection<String, String> connection = this.sentinels.get(port);
		if (connection == null || !connection.isOpen()) {
			connection = this.client.connectSentinel(uri(port));
			this.sentinels.put(port, connection);
		}
		return connection.sync();
	}

	private static RedisURI uri(int port) {
		return RedisURI.builder().withHost("127.0.0.1").withPort(port).withTimeout(Duration.ofSeconds(10)).build();
	}

	@Override
	public synchronized void close() {
		this.nodes.values().forEach(StatefulRedisConnection::close);
		this.sentinels.values().forEach(StatefulRedisSentinelConnection::close);
		this.nodes.clear();
		this.sentinels.clear();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
