package io.github.lockable.store.redis;

import org.jspecify.annotations.Nullable;

/**
 * Whether a lock key exists, for a waiter that subscribed to the lock's wake-up channel.
 */
final class ExistsCall extends RedisCall<Boolean> {

	private final byte[] key;

	ExistsCall(CallFailures failures, byte[] key) {
		super(failures);
		this.key = key;
	}

	@Override
	void send(NativeConnection connection) {
		listenTo(connection.commands().exists(this.key));
	}

	@Override
	void answered(NativeConnection connection, @Nullable Object answer) {
		finish((Long) answer != 0);
	}

}
