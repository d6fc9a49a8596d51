package io.github.lockable.core;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.jspecify.annotations.Nullable;

/**
 * How an instance names itself to the stores it holds locks in: {@code application@host},
 * or the host alone.
 */
final class LockHolders {

	/** This process's id. */
	static final long PID = ProcessHandle.current().pid();

	private LockHolders() {
	}

	/**
	 * The instance name of an application on this host.
	 * @param application the application's name ({@code spring.application.name}), or
	 * {@code null} or empty when it has none
	 * @return such as {@code orders@host-1}, or {@code host-1}
	 */
	public static String instance(@Nullable String application) {
		return (application == null || application.isBlank()) ? host() : application + "@" + host();
	}

	static String host() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			String host = System.getenv("HOSTNAME");
			return (host != null && !host.isBlank()) ? host : "unknown-host";
		}
	}

}
