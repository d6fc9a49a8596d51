package io.github.lockable;

import java.util.Optional;

/**
 * The lock of the {@link Lockable @Lockable} call running on this thread, so that the
 * method can hand its {@link HeldLock#fencingToken() fencing token} to the storage it
 * writes.
 * <p>
 * A {@code Mono} method or a Kotlin suspend function finds its lock in the Reactor context
 * under {@link #REACTOR_CONTEXT_KEY}: {@code Mono.deferContextual(context ->
 * Mono.justOrEmpty(context.getOrEmpty(LockContext.REACTOR_CONTEXT_KEY)))}.
 */
public final class LockContext {

	/** The key of the call's {@link HeldLock} in the Reactor context of a locked {@code Mono}. */
	public static final Object REACTOR_CONTEXT_KEY = HeldLock.class;

	private static final ThreadLocal<HeldLock> current = new ThreadLocal<>();

	/**
	 * The usual scope, with nothing current before: shared, as it captures nothing. It sets
	 * null rather than removing the entry, which the next call on the thread would allocate again.
	 */
	private static final Scope CLEAR = () -> current.set(null);

	private LockContext() {
	}

	/**
	 * The lock of the {@code @Lockable} call running on this thread.
	 * @return the call's lock, or empty outside a locked blocking call
	 */
	public static Optional<HeldLock> current() {
		return Optional.ofNullable(current.get());
	}

	/**
	 * Makes a lock current on this thread until the returned scope is closed, which
	 * restores what was current before. Used by Lockable's advice; code that runs a locked
	 * call's work on another thread can use it too.
	 * @param lock the lock to make current
	 * @return the scope to close when the work ends
	 */
	public static Scope bind(HeldLock lock) {
		HeldLock previous = current.get();
		current.set(lock);
		return (previous != null) ? () -> current.set(previous) : CLEAR;
	}

	/**
	 * A lock made current by {@link #bind(HeldLock)}.
	 */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		/**
		 * Restores the lock that was current before.
		 */
		@Override
		void close();

	}

}
