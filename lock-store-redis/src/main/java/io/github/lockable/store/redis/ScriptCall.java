package io.github.lockable.store.redis;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A call that runs one of the store's scripts and reads its integer answer.
 * @param <T> what the answer means
 */
final class ScriptCall<T> extends RedisCall<T> {

	private static final Logger logger = LoggerFactory.getLogger(ScriptCall.class);

	private final Function<Long, T> meaning;

	/**
	 * @param failures what failures mean
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @param meaning what its answer means, a function that captures nothing per call
	 */
	ScriptCall(CallFailures failures, LockScript script, byte[][] keys, byte[][] args, Function<Long, T> meaning) {
		super(failures);
		script(script, keys, args);
		this.meaning = meaning;
	}

	@Override
	void send(NativeConnection connection) {
		evalsha(connection);
	}

	@Override
	void answered(NativeConnection connection, @Nullable Object answer) {
		finish(this.meaning.apply((Long) answer));
	}

	@Override
	boolean runsScript() {
		return true;
	}

	/**
	 * The meaning of the release queued behind an acquire that timed out.
	 * @param deleted whether it deleted a lock
	 * @return {@code deleted}
	 */
	static Long lateAcquireDeleted(Long deleted) {
		if (deleted == 1L && logger.isDebugEnabled()) {
			logger.debug("Deleted a lock whose acquire answered after its timeout");
		}
		return deleted;
	}

}
