package io.github.lockable.store.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection the store opened or took from the factory, with the Lettuce commands it
 * sends on and what to close to give it back.
 */
record NativeConnection(AutoCloseable resource, RedisClusterAsyncCommands<byte[], byte[]> commands) {

	private static final Logger logger = LoggerFactory.getLogger(NativeConnection.class);

	void close() {
		try {
			this.resource.close();
		}
		catch (Exception ex) {
			logger.debug("Failed to close the Redis connection", ex);
		}
	}

}
