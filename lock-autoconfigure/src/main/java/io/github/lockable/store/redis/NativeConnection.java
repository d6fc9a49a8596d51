package io.github.lockable.store.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * A connection the store took from the factory, with the Lettuce commands it sends on.
 */
record NativeConnection(LettuceConnection springConnection, RedisClusterAsyncCommands<byte[], byte[]> commands) {

	private static final Logger logger = LoggerFactory.getLogger(NativeConnection.class);

	void close() {
		try {
			this.springConnection.close();
		}
		catch (RuntimeException ex) {
			logger.debug("Failed to close the Redis connection", ex);
		}
	}

}
