package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;

/**
 * What a failed store call means, and what it does to the connection it ran on: a
 * timeout, the store's own or Lettuce's, adds to the connection's silence, an error answer
 * ends it, and any other failure (the connection closed or reset) makes the next call open
 * another if this one is closed for good. A script the server's ACL refuses makes the store
 * refuse acquires ({@link ScriptRefusal}).
 */
final class CallFailures {

	private final Duration timeout;

	private final long timeoutNanos;

	private final RedisTimeouts timeouts;

	private final RedisConnections[] connections;

	private final ScriptRefusal refusal;

	/**
	 * @param timeout the store's timeout
	 * @param timeouts the client's timeouts, to name the one that fired
	 * @param refusal told of a script the server refused
	 * @param connections the store's connections, to forget one found closed for good
	 */
	CallFailures(Duration timeout, RedisTimeouts timeouts, ScriptRefusal refusal, RedisConnections... connections) {
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
		this.timeouts = timeouts;
		this.refusal = refusal;
		this.connections = connections;
	}

	long timeoutNanos() {
		return this.timeoutNanos;
	}

	/**
	 * The store's own timeout fired.
	 * @param sentOn the connection the command went out on, null when it was never sent
	 * @return the failure
	 */
	RedisTimeoutException timedOut(@Nullable NativeConnection sentOn) {
		return new RedisTimeoutException(this.timeout, sentOn);
	}

	/**
	 * A command sent at {@code start} on {@code failed} failed.
	 * @param failed the connection
	 * @param start when the call started ({@link System#nanoTime()})
	 * @param ex the failure, unwrapped
	 * @return the store failure
	 */
	LockStoreException of(NativeConnection failed, long start, Throwable ex) {
		if (ex instanceof LockStoreException storeException) {
			return storeException;
		}
		RedisTimeoutException timedOut = this.timeouts.ofCommand(ex, failed);
		if (timedOut != null) {
			failed.timedOut(start);
			return timedOut;
		}
		if (ex instanceof RedisCommandExecutionException) {
			failed.answered();
		}
		else {
			// Not an error answer from the server: the connection may be closed for good.
			for (RedisConnections candidate : this.connections) {
				candidate.invalidate(failed);
			}
		}
		return new LockStoreException("Redis command failed: " + ex.getMessage(), ex);
	}

	/**
	 * A script sent at {@code start} on {@code failed} failed: as {@link #of}, except that
	 * one the server's ACL refused is the refusal, and acquires are refused from now on.
	 * @param failed the connection
	 * @param start when the call started ({@link System#nanoTime()})
	 * @param ex the failure, unwrapped
	 * @return the store failure
	 */
	LockStoreException ofScript(NativeConnection failed, long start, Throwable ex) {
		LockStoreException refused = this.refusal.refusedBy(ex);
		if (refused == null) {
			return of(failed, start, ex);
		}
		failed.answered();
		return refused;
	}

	/**
	 * A failure that did not come from a command on a connection (opening one, a probe).
	 * @param ex the failure, wrapped or not
	 * @return the store failure
	 */
	static LockStoreException of(Throwable ex) {
		Throwable cause = unwrap(ex);
		return (cause instanceof LockStoreException storeException) ? storeException
				: new LockStoreException("Redis command failed: " + cause.getMessage(), cause);
	}

	static Throwable unwrap(Throwable ex) {
		Throwable current = ex;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

}
