package io.github.lockable.store.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.netty.util.Timer;

/**
 * A connection the store opened, with the Lettuce commands it sends on, and how long it
 * has been silent.
 * <p>
 * A connection whose peer vanished without closing it (a half-open connection: a firewall
 * or NAT dropped its state, a host was cut off) looks open to the client for ever, and
 * TCP keepalive does not help while the kernel still acknowledges what is sent. The only
 * sign is silence: commands time out and nothing answers. So every command that times out
 * without an answer since it was sent starts or continues a silence, and any answer ends it.
 */
final class NativeConnection {

	private final StatefulConnection<byte[], byte[]> connection;

	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	/** What its server has, asked once when it opened. */
	private final RedisServerFeatures server;

	/** The timer of the client that opened the connection. */
	private final Timer timer;

	/** When the oldest command that timed out unanswered was sent; 0 while answers come. */
	private final AtomicLong silentSince = new AtomicLong();

	private final ConnectionClose close;

	NativeConnection(StatefulConnection<byte[], byte[]> connection, RedisClusterAsyncCommands<byte[], byte[]> commands,
			RedisServerFeatures server) {
		this.connection = connection;
		this.commands = commands;
		this.server = server;
		this.timer = connection.getResources().timer();
		this.close = new ConnectionClose(connection);
	}

	RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return this.commands;
	}

	/**
	 * What the connection's server is and has, asked once when it opened.
	 */
	RedisServerFeatures server() {
		return this.server;
	}

	/**
	 * The timer of the client's resources, which bounds the store's calls on this connection.
	 */
	Timer timer() {
		return this.timer;
	}

	/**
	 * The server answered on this connection (a value or an error): it is alive.
	 */
	void answered() {
		if (this.silentSince.get() != 0) {
			this.silentSince.set(0);
		}
	}

	/**
	 * A command sent at {@code sentAt} timed out unanswered.
	 * @param sentAt when it was sent ({@link System#nanoTime()})
	 */
	void timedOut(long sentAt) {
		// 0 means "not silent": a nanoTime of exactly 0 is moved by one.
		this.silentSince.compareAndSet(0, (sentAt != 0) ? sentAt : 1);
	}

	/**
	 * Whether the connection has answered nothing for at least {@code limitNanos}, counting
	 * from a command that timed out unanswered.
	 * @param now the current {@link System#nanoTime()}
	 * @param limitNanos how long a silence may last
	 * @return whether the connection is silent for longer than that
	 */
	boolean silentFor(long now, long limitNanos) {
		long since = this.silentSince.get();
		return since != 0 && now - since >= limitNanos;
	}

	/**
	 * Whether the connection is closed for good: closed, or disconnected without Lettuce's
	 * reconnect. A disconnected one that Lettuce reconnects queues its commands meanwhile.
	 */
	boolean closed() {
		return ((this.connection instanceof RedisChannelHandler<?, ?> handler) && handler.isClosed())
				|| (!this.connection.isOpen() && !this.connection.getOptions().isAutoReconnect());
	}

	CompletableFuture<Void> close() {
		return this.close.close();
	}

}
