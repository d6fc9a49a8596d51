package io.github.lockable.store.redis;

import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;
import org.jspecify.annotations.Nullable;

/**
 * Closes one connection once. A disconnect's listener, a failed command, a connect that
 * finished after the store stopped and the store's stop may each close it, and Lettuce
 * WARNs "Connection is already closed" at every close after the first; the store's stop
 * waits for the first close, so that its client's shutdown, which closes every connection
 * still closing, does not close it again.
 */
final class ConnectionClose {

	private final StatefulConnection<?, ?> connection;

	private @Nullable CompletableFuture<Void> closing;

	ConnectionClose(StatefulConnection<?, ?> connection) {
		this.connection = connection;
	}

	/**
	 * Closes the connection, unless it was closed before (by this or by its client's
	 * shutdown).
	 * @return completes once the connection is closed
	 */
	synchronized CompletableFuture<Void> close() {
		if (this.closing == null) {
			boolean closed = (this.connection instanceof RedisChannelHandler<?, ?> handler) && handler.isClosed();
			this.closing = closed ? CompletableFuture.completedFuture(null) : this.connection.closeAsync();
		}
		return this.closing;
	}

}
