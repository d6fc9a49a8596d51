package io.github.lockable.store.redis;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;

/**
 * One store call on Redis and its future: the commands it sends one after the other on
 * one connection, bounded together by the store's timeout from the call's start, opening
 * the connection included. An answer, a failure or the timeout ends the call, whichever
 * comes first; what comes after is ignored.
 * <p>
 * The timeout is one task on the client's timer ({@code ClientResources.timer()}, which
 * runs Lettuce's own command timeouts too), cancelled by the answer. That timer fires on
 * its first tick after the timeout, so a call that times out ends up to a tick late (100ms
 * with Lettuce's default timer), never early. The call is its own callback on each
 * command's future and its own timer task, so that a call costs its future, one callback
 * per command and one timer task, and no command waits in the JDK's shared timer queue.
 * <p>
 * A subclass sends the first command and reads each answer, ending the call or sending the
 * next command; an EVALSHA that the server answers NOSCRIPT (after a restart or SCRIPT
 * FLUSH) is sent again here, as EVAL of the same script.
 * @param <T> the call's result
 */
abstract class RedisCall<T> extends CompletableFuture<T> implements BiConsumer<Object, Throwable>, TimerTask {

	/** Waiting for a connection; the command is not sent yet. */
	private static final int CONNECTING = 0;

	/** A command is out on {@link #connection}. */
	private static final int SENT = 1;

	/** The call has its outcome. */
	private static final int DONE = 2;

	private static final VarHandle STATE;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(RedisCall.class, "state", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final CallFailures failures;

	/** When the call started ({@link System#nanoTime()}). */
	private final long start = System.nanoTime();

	private volatile int state;

	private volatile @Nullable NativeConnection connection;

	private volatile @Nullable Timeout timeout;

	/** The script of the EVALSHA out now, else null: a NOSCRIPT answer sends it by EVAL. */
	private @Nullable LockScript script;

	private byte[] @Nullable [] keys;

	private byte[] @Nullable [] args;

	RedisCall(CallFailures failures) {
		this.failures = failures;
	}

	final CallFailures failures() {
		return this.failures;
	}

	final long start() {
		return this.start;
	}

	/**
	 * Starts the call on the open connection, or on the one being opened if the connection
	 * comes before the timeout: a command sent after its caller gave up (an acquire) would
	 * hold a lock nobody releases.
	 * @param connections where to send
	 * @return this call
	 */
	final RedisCall<T> start(RedisConnections connections) {
		NativeConnection current = connections.current();
		if (current != null) {
			this.connection = current;
			this.state = SENT;
			if (schedule(current.timer())) {
				sendFirst(current);
			}
			return this;
		}
		CompletableFuture<NativeConnection> opening = connections.opening();
		if (schedule(connections.timer())) {
			opening.whenComplete(this::opened);
		}
		return this;
	}

	/**
	 * Sends the call on a connection without a timeout of its own, for a command that no
	 * caller waits for; Lettuce's command timeout still ends it.
	 * @param connection where to send
	 * @return this call
	 */
	final RedisCall<T> startUnbounded(NativeConnection connection) {
		this.connection = connection;
		this.state = SENT;
		sendFirst(connection);
		return this;
	}

	/**
	 * Sends the call's first command.
	 * @param connection the call's connection
	 */
	abstract void send(NativeConnection connection);

	/**
	 * Reads an answer: ends the call ({@link #finish}) or sends the next command.
	 * @param connection the call's connection
	 * @param answer the command's answer
	 */
	abstract void answered(NativeConnection connection, @Nullable Object answer);

	/**
	 * Ends the call with its failure; the call's future fails with it, unless a subclass
	 * answers a failure with a result.
	 * @param failure why the call failed, {@link RedisTimeoutException} when a
	 * timeout ended it
	 */
	void failed(LockStoreException failure) {
		completeExceptionally(failure);
	}

	/**
	 * Reads a failed command's failure, ending the call with it; a subclass may answer some
	 * failures with a result instead.
	 * @param connection the call's connection
	 * @param failure how the command failed, unwrapped
	 */
	void commandFailed(NativeConnection connection, Throwable failure) {
		if (decide(SENT)) {
			failed(runsScript() ? this.failures.ofScript(connection, this.start, failure)
					: this.failures.of(connection, this.start, failure));
		}
	}

	/**
	 * Whether the command out now is one of the store's scripts, whose refusal by the
	 * server's ACL makes the store refuse acquires.
	 * @return false unless a subclass sends scripts
	 */
	boolean runsScript() {
		return false;
	}

	/**
	 * Names the script that {@link #evalsha(NativeConnection)} sends.
	 */
	final void script(LockScript script, byte[][] keys, byte[][] args) {
		this.script = script;
		this.keys = keys;
		this.args = args;
	}

	/**
	 * Sends the {@linkplain #script named script} by EVALSHA, to be sent again by EVAL on
	 * NOSCRIPT.
	 */
	final void evalsha(NativeConnection connection) {
		LockScript named = this.script;
		if (named == null || this.keys == null || this.args == null) {
			throw new IllegalStateException("No script to send");
		}
		named = named.on(connection.server());
		this.script = named;
		listenTo(connection.commands().evalsha(named.sha1(), ScriptOutputType.INTEGER, this.keys, this.args));
	}

	/**
	 * Waits for a command's answer, in {@link #accept}.
	 */
	final void listenTo(CompletionStage<?> command) {
		command.whenComplete(this);
	}

	/**
	 * Ends the call with its result, unless it has ended already.
	 */
	final void finish(T result) {
		if (decide(SENT)) {
			complete(result);
		}
	}

	/**
	 * The answer or failure of the command out now.
	 */
	@Override
	public final void accept(@Nullable Object answer, @Nullable Throwable ex) {
		NativeConnection current = this.connection;
		if (this.state != SENT || current == null) {
			return;
		}
		if (ex == null) {
			current.answered();
			try {
				answered(current, answer);
			}
			catch (RuntimeException failure) {
				commandFailed(current, failure);
			}
			return;
		}
		Throwable failure = CallFailures.unwrap(ex);
		LockScript unknown = this.script;
		if (failure instanceof RedisNoScriptException && unknown != null && this.keys != null && this.args != null) {
			this.script = null;
			current.answered();
			listenTo(current.commands().eval(unknown.source(), ScriptOutputType.INTEGER, this.keys, this.args));
			return;
		}
		this.script = null;
		commandFailed(current, failure);
	}

	/**
	 * The store's timeout: the call ends with a timeout failure, which adds to the silence
	 * of the connection the command went out on; a command never sent stays unsent.
	 */
	@Override
	public final void run(Timeout timeout) {
		while (true) {
			int current = this.state;
			if (current == DONE) {
				return;
			}
			if (STATE.compareAndSet(this, current, DONE)) {
				NativeConnection sentOn = (current == SENT) ? this.connection : null;
				if (sentOn != null) {
					sentOn.timedOut(this.start);
				}
				failed(this.failures.timedOut(sentOn));
				return;
			}
		}
	}

	private void opened(@Nullable NativeConnection opened, @Nullable Throwable ex) {
		if (ex != null || opened == null) {
			if (decide(CONNECTING)) {
				failed(CallFailures.of((ex != null) ? ex : new IllegalStateException("No connection")));
			}
			return;
		}
		this.connection = opened;
		if (STATE.compareAndSet(this, CONNECTING, SENT)) {
			sendFirst(opened);
		}
	}

	private void sendFirst(NativeConnection connection) {
		try {
			send(connection);
		}
		catch (RuntimeException ex) {
			commandFailed(connection, ex);
		}
	}

	private boolean schedule(Timer timer) {
		try {
			this.timeout = timer.newTimeout(this, this.failures.timeoutNanos(), TimeUnit.NANOSECONDS);
			return true;
		}
		catch (IllegalStateException | RejectedExecutionException ex) {
			// The client's resources were shut down: the store was closed meanwhile.
			if (decide(this.state)) {
				failed(new LockStoreException("The Redis lock store was closed", "UNREACHABLE", ex));
			}
			return false;
		}
	}

	/**
	 * Takes the call from {@code expected} to done, once, and cancels its timeout.
	 */
	private boolean decide(int expected) {
		if (!STATE.compareAndSet(this, expected, DONE)) {
			return false;
		}
		Timeout pending = this.timeout;
		if (pending != null) {
			pending.cancel();
		}
		return true;
	}

}
