package io.github.lockable.store.redis;

import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection the store opened or took from the factory, with the Lettuce commands it
 * sends on, what to close to give it back, and how long it has been silent.
 * <p>
 * A connection whose peer vanished without closing it (a half-open connection: a firewall
 * or NAT dropped its state, a host was cut off) looks open to the client for ever, and
 * TCP keepalive does not help while the kernel still acknowledges what is sent. The only
 * sign is silence: commands time out and nothing answers. So every command that times out
 * without an answer since it was sent starts or continues a silence, and any answer ends it.
 */
final class NativeConnection {

	private static final Logger logger = LoggerFactory.getLogger(NativeConnection.class);

	private final AutoCloseable resource;

	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	/** When the oldest command that timed out unanswered was sent; 0 while answers come. */
	private final AtomicLong silentSince = new AtomicLong();

	NativeConnection(AutoCloseable resource, RedisClusterAsyncCommands<byte[], byte[]> commands) {
		this.resource = resource;
		this.commands = commands;
	}

	RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return this.commands;
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

	void close() {
		try {
			this.resource.close();
		}
		catch (Exception ex) {
			logger.debug("Failed to close the Redis connection", ex);
		}
	}

}
