package io.github.lockable.store.redis;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.netty.util.Timer;

import io.github.lockable.LockableConfigurationException;

import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ReflectionUtils;

/**
 * The store's own Lettuce client, built from the application's factory's configuration
 * (the server or the Sentinels or the Cluster nodes, credentials, TLS, client options,
 * timeouts, the application's {@code ClientResources}), so that the store opens, drops
 * and closes connections of its own and never touches the ones the application's other
 * Redis users share.
 * <p>
 * A factory rather than a bare client: Spring Data builds the client's URI and opens
 * connections asynchronously through its connection provider, which it hands out only to
 * a subclass. Nothing opens before the first connect; {@link #close()} shuts the client
 * down, which closes every connection it opened, and a later connect starts it again.
 */
final class StoreConnectionFactory extends LettuceConnectionFactory {

	private StoreConnectionFactory(RedisConfiguration configuration, LettuceConnectionFactory application) {
		super(configuration, application.getClientConfiguration());
	}

	/**
	 * A factory of the store's own with the application factory's configuration.
	 * @param application the application's factory
	 * @return the store's factory, not started
	 * @throws LockableConfigurationException when the application's factory connects to a
	 * static master/replica setup, which the store cannot copy
	 */
	static StoreConnectionFactory of(LettuceConnectionFactory application) {
		return new StoreConnectionFactory(configurationOf(application), application);
	}

	private static RedisConfiguration configurationOf(LettuceConnectionFactory application) {
		if (isStaticMasterReplica(application)) {
			throw new LockableConfigurationException(List.of("lockable.store=redis cannot use a static master/replica "
					+ "RedisConnectionFactory (RedisStaticMasterReplicaConfiguration, spring.data.redis.masterreplica.*): "
					+ "its locks would go to localhost:6379 instead of the master. Point the RedisConnectionFactory at "
					+ "the master (spring.data.redis.host and port), or use Sentinel (spring.data.redis.sentinel.*) "
					+ "for failover; or set lockable.store=file (one host) or lockable.store=memory (one JVM)"));
		}
		if (application.isClusterAware()) {
			return application.getClusterConfiguration();
		}
		if (application.isRedisSentinelAware()) {
			return application.getSentinelConfiguration();
		}
		RedisSocketConfiguration socket = application.getSocketConfiguration();
		return (socket != null) ? socket : application.getStandaloneConfiguration();
	}

	/**
	 * Whether the factory was built with a {@code RedisStaticMasterReplicaConfiguration}.
	 * Spring Data Redis answers that only privately ({@code isStaticMasterReplicaAware}),
	 * and such a factory's {@link #getStandaloneConfiguration()} is the unused default,
	 * so the configuration is read from its field.
	 */
	private static boolean isStaticMasterReplica(LettuceConnectionFactory application) {
		Field field = ReflectionUtils.findField(LettuceConnectionFactory.class, "configuration", RedisConfiguration.class);
		if (field == null) {
			return false;
		}
		ReflectionUtils.makeAccessible(field);
		return ReflectionUtils.getField(field, application) instanceof RedisConfiguration configuration
				&& RedisConfiguration.isStaticMasterReplicaConfiguration(configuration);
	}

	/**
	 * Starts opening a connection for commands: to the server, the master the Sentinels
	 * name, or the Cluster.
	 * @return the connection's future, failed when it cannot be opened
	 */
	synchronized CompletableFuture<? extends StatefulConnection<byte[], byte[]>> connect() {
		AbstractRedisClient client = startedClient();
		if (client instanceof RedisClusterClient cluster) {
			// Not through the provider, which loads the topology synchronously first.
			return topologyOf(cluster).thenCompose((loaded) -> cluster.connectAsync(ByteArrayCodec.INSTANCE));
		}
		return doCreateConnectionProvider(client, ByteArrayCodec.INSTANCE)
			.getConnectionAsync(StatefulRedisConnection.class)
			.thenApply(StoreConnectionFactory::<byte[], byte[]>standalone)
			.toCompletableFuture();
	}

	/**
	 * Starts opening a pub/sub connection; on a Cluster, one that hears every node, as a
	 * sharded subscription goes to the node of its channel's slot.
	 * @return the connection's future, failed when it cannot be opened
	 */
	synchronized CompletableFuture<StatefulRedisPubSubConnection<String, String>> connectPubSub() {
		AbstractRedisClient client = startedClient();
		if (client instanceof RedisClusterClient cluster) {
			return topologyOf(cluster).thenCompose((loaded) -> cluster.connectPubSubAsync(StringCodec.UTF8))
				.thenApply((connection) -> {
					connection.setNodeMessagePropagation(true);
					return (StatefulRedisPubSubConnection<String, String>) connection;
				});
		}
		return doCreateConnectionProvider(client, StringCodec.UTF8)
			.getConnectionAsync(StatefulRedisPubSubConnection.class)
			.thenApply(StoreConnectionFactory::<String, String>pubSub)
			.toCompletableFuture();
	}

	/**
	 * The timer of the client's resources ({@code ClientResources.timer()}), the client
	 * started if it is not.
	 * @return the timer
	 */
	synchronized Timer timer() {
		return startedClient().getResources().timer();
	}

	/**
	 * Loads the Cluster's topology, which a connect needs first, without blocking.
	 */
	private static CompletableFuture<Void> topologyOf(RedisClusterClient cluster) {
		return cluster.refreshPartitionsAsync().toCompletableFuture();
	}

	@SuppressWarnings("unchecked")
	private static <K, V> StatefulRedisConnection<K, V> standalone(StatefulRedisConnection<?, ?> connection) {
		return (StatefulRedisConnection<K, V>) connection;
	}

	@SuppressWarnings("unchecked")
	private static <K, V> StatefulRedisPubSubConnection<K, V> pubSub(StatefulRedisPubSubConnection<?, ?> connection) {
		return (StatefulRedisPubSubConnection<K, V>) connection;
	}

	private AbstractRedisClient startedClient() {
		// Creates the client on the first call and after a close; opens nothing.
		start();
		return getRequiredNativeClient();
	}

	/**
	 * Shuts the store's client down, closing every connection it opened. The application's
	 * {@code ClientResources}, if it has some, stay up.
	 */
	synchronized void close() {
		stop();
	}

}
