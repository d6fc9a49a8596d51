package io.github.lockable.store.redis;

import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock store's one pub/sub connection, of the store's own client, and what it hears:
 * wake-up messages and its own disconnection, both passed on to the
 * {@link RedisLockNotifications}.
 * <p>
 * It subscribes the way the release script publishes: sharded (SSUBSCRIBE) where the
 * server has sharded pub/sub ({@link RedisServerFeatures}, asked once as the connection
 * opens, before it subscribes: a subscribed RESP2 connection takes no other commands),
 * else classic SUBSCRIBE.
 */
final class RedisSubscriber extends RedisPubSubAdapter<String, String> implements RedisConnectionStateListener {

	private static final Logger logger = LoggerFactory.getLogger(RedisSubscriber.class);

	private final StatefulRedisPubSubConnection<String, String> connection;

	private final RedisLockNotifications notifications;

	private final boolean sharded;

	private final ConnectionClose close;

	private RedisSubscriber(StatefulRedisPubSubConnection<String, String> connection,
			RedisLockNotifications notifications, boolean sharded) {
		this.connection = connection;
		this.notifications = notifications;
		this.sharded = sharded;
		this.close = new ConnectionClose(connection);
	}

	/**
	 * Opens a connection of the store's own, with Lettuce's asynchronous connect.
	 * @param client the store's client
	 * @param notifications what to tell of messages and disconnection
	 * @return the subscriber's future, failed when the connection cannot be opened
	 */
	static CompletableFuture<RedisSubscriber> open(StoreConnectionFactory client,
			RedisLockNotifications notifications) {
		return client.connectPubSub()
			.thenCompose((connection) -> RedisServerFeatures.detect(connection.async()).thenApply((server) -> {
				RedisSubscriber subscriber = new RedisSubscriber(connection, notifications, server.sharded());
				connection.addListener((RedisPubSubAdapter<String, String>) subscriber);
				((RedisChannelHandler<?, ?>) connection).addListener((RedisConnectionStateListener) subscriber);
				if (!connection.isOpen()) {
					// Dropped before the listener was there to hear it.
					connection.closeAsync();
					throw new IllegalStateException("The Redis pub/sub connection closed while opening");
				}
				return subscriber;
			}));
	}

	/**
	 * Whether Lettuce reconnects this connection after a disconnection, and subscribes
	 * its channels again.
	 */
	boolean reconnects() {
		return this.connection.getOptions().isAutoReconnect()
				&& !((RedisChannelHandler<?, ?>) this.connection).isClosed();
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

	CompletableFuture<Void> close() {
		return this.close.close();
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
