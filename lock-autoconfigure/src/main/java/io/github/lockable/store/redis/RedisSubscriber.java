package io.github.lockable.store.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The lock store's one pub/sub connection, opened from the application's Lettuce client,
 * and what it hears: wake-up messages and its own disconnection, both passed on to the
 * {@link RedisLockNotifications}.
 * <p>
 * It subscribes the way the release script publishes: sharded (SSUBSCRIBE) where the
 * server knows SPUBLISH, which is Redis 7 and later, else classic SUBSCRIBE.
 */
final class RedisSubscriber extends RedisPubSubAdapter<String, String> implements RedisConnectionStateListener {

	private static final Logger logger = LoggerFactory.getLogger(RedisSubscriber.class);

	private final StatefulRedisPubSubConnection<String, String> connection;

	private final RedisLockNotifications notifications;

	private final boolean sharded;

	private RedisSubscriber(StatefulRedisPubSubConnection<String, String> connection,
			RedisLockNotifications notifications) {
		this.connection = connection;
		this.notifications = notifications;
		this.sharded = knowsSpublish(connection);
	}

	/**
	 * Opens a connection, blocking for as long as the client's connect timeout allows.
	 * @param connectionFactory the application's factory
	 * @param notifications what to tell of messages and disconnection
	 * @return the open subscriber
	 * @throws RuntimeException when the connection cannot be opened
	 */
	static RedisSubscriber open(LettuceConnectionFactory connectionFactory, RedisLockNotifications notifications) {
		AbstractRedisClient client = connectionFactory.getRequiredNativeClient();
		StatefulRedisPubSubConnection<String, String> connection;
		if (client instanceof RedisClusterClient cluster) {
			StatefulRedisClusterPubSubConnection<String, String> clusterConnection = cluster
				.connectPubSub(StringCodec.UTF8);
			// SSUBSCRIBE goes to the node of the channel's slot; its messages come from there.
			clusterConnection.setNodeMessagePropagation(true);
			connection = clusterConnection;
		}
		else if (client instanceof RedisClient redis) {
			connection = redis.connectPubSub(StringCodec.UTF8);
		}
		else {
			throw new IllegalStateException("Unsupported Lettuce client " + client.getClass().getName());
		}
		try {
			RedisSubscriber subscriber = new RedisSubscriber(connection, notifications);
			connection.addListener((RedisPubSubAdapter<String, String>) subscriber);
			((RedisChannelHandler<?, ?>) connection).addListener((RedisConnectionStateListener) subscriber);
			if (!connection.isOpen()) {
				// Dropped before the listener was there to hear it.
				throw new IllegalStateException("The Redis pub/sub connection closed while opening");
			}
			return subscriber;
		}
		catch (RuntimeException ex) {
			connection.closeAsync();
			throw ex;
		}
	}

	/**
	 * Whether the server has SPUBLISH, as the release script finds out for itself; asked
	 * before the connection subscribes, as a subscribed RESP2 connection takes no commands.
	 */
	private static boolean knowsSpublish(StatefulRedisPubSubConnection<String, String> connection) {
		try {
			List<Object> info = connection.sync().commandInfo("SPUBLISH");
			return !info.isEmpty() && info.get(0) != null;
		}
		catch (RuntimeException ex) {
			// COMMAND denied by an ACL, say: assume a current server.
			logger.debug("Cannot ask the server about SPUBLISH; assuming sharded pub/sub", ex);
			return true;
		}
	}

	CompletableFuture<Void> subscribe(String channel) {
		return (this.sharded ? this.connection.async().ssubscribe(channel)
				: this.connection.async().subscribe(channel))
			.toCompletableFuture();
	}

	void unsubscribe(String channel) {
		(this.sharded ? this.connection.async().sunsubscribe(channel) : this.connection.async().unsubscribe(channel))
			.exceptionally((ex) -> {
				logger.debug("Failed to unsubscribe from a lock's wake-up channel", ex);
				return null;
			});
	}

	void close() {
		this.connection.closeAsync();
	}

	@Override
	public void message(String channel, String message) {
		this.notifications.released(this, channel);
	}

	@Override
	public void smessage(String channel, String message) {
		this.notifications.released(this, channel);
	}

	@Override
	public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
		this.notifications.disconnected(this);
	}

}
