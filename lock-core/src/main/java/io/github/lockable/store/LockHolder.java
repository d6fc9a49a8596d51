package io.github.lockable.store;

import java.util.Objects;

/**
 * Who asks for a lock, as a store keeps it beside the lock's token so that an operator can
 * see who holds what across instances ({@link LockStore#locks(String, int)}). Nothing in
 * it is secret: never a token, never an argument of a call.
 *
 * @param instance the application instance: its name ({@code spring.application.name})
 * and host, such as {@code orders@host-1}, or the host alone
 * @param pid the process id of the instance
 * @param method the caller, as the log names it: {@code Type.name(Args)} for a
 * {@code @Lockable} method, {@code LockTemplate} for programmatic use
 */
public record LockHolder(String instance, long pid, String method) {

	/**
	 * Creates the holder's description.
	 * @param instance the application instance
	 * @param pid the process id of the instance
	 * @param method the caller, as the log names it
	 */
	public LockHolder {
		Objects.requireNonNull(instance, "instance must not be null");
		Objects.requireNonNull(method, "method must not be null");
	}

}
