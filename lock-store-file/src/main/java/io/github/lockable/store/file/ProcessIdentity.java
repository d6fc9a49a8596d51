package io.github.lockable.store.file;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * Who holds a lock, precise enough to tell, on Linux, that the holder's process is gone,
 * so that the lock of a job killed with SIGKILL is taken over at once, not only when its
 * TTL (often as long as the job's longest run) runs out.
 * <p>
 * A pid alone is no identity: pids are reused, and mean another process in another pid
 * namespace or after a reboot. So a holder is known to be dead only when the host, boot id
 * and pid namespace are ours and {@code /proc} has no such pid, or a zombie, or a process
 * that started at another tick since boot ({@code /proc/<pid>/stat}: exact, unlike
 * {@link ProcessHandle.Info#startInstant()}). Where any of this is unknown, as on other
 * systems, the holder counts as alive and the TTL decides. {@code hidepid=} never hides a
 * holder: it hides only other users' processes, and every holder runs as the user that
 * owns the lock directory, as {@link DirectorySafety} refuses anyone else.
 *
 * @param host the host name
 * @param pid the process id
 * @param bootId the kernel's boot id, if known
 * @param pidNamespace the pid namespace, such as {@code pid:[4026531836]}, if known
 * @param startTicks the process start time in clock ticks since boot, if known
 */
record ProcessIdentity(String host, long pid, @Nullable String bootId, @Nullable String pidNamespace,
		@Nullable Long startTicks) {

	private static final Path PROC = Path.of("/proc");

	private static final ProcessIdentity CURRENT = read();

	/** The identity of this JVM, read once. */
	static ProcessIdentity current() {
		return CURRENT;
	}

	/**
	 * Whether the process this identity names is certainly gone.
	 * @param observer the process that asks, normally {@link #current()}
	 * @return {@code true} only when the process is known to be dead
	 */
	boolean isKnownDead(ProcessIdentity observer) {
		if (this.startTicks == null || this.bootId == null || this.pidNamespace == null
				|| !this.host.equals(observer.host) || !this.bootId.equals(observer.bootId)
				|| !this.pidNamespace.equals(observer.pidNamespace)) {
			return false;
		}
		try {
			ProcStat stat = ProcStat.read(this.pid);
			return stat == null || stat.isDead() || stat.startTicks() != this.startTicks;
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	private static ProcessIdentity read() {
		long pid = ProcessHandle.current().pid();
		Long startTicks;
		String pidNamespace;
		try {
			startTicks = ProcStat.read(pid).startTicks();
			pidNamespace = Files.readSymbolicLink(PROC.resolve("self/ns/pid")).toString();
		}
		catch (IOException | RuntimeException ex) {
			startTicks = null;
			pidNamespace = null;
		}
		String host = readLine("sys/kernel/hostname");
		if (host == null || host.isEmpty()) {
			try {
				host = InetAddress.getLocalHost().getHostName();
			}
			catch (IOException | RuntimeException ex) {
				host = "unknown";
			}
		}
		return new ProcessIdentity(host, pid, readLine("sys/kernel/random/boot_id"), pidNamespace, startTicks);
	}

	private static @Nullable String readLine(String file) {
		try {
			return Files.readString(PROC.resolve(file)).trim();
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/** The fields of {@code /proc/<pid>/stat} that matter here. */
	record ProcStat(char state, long startTicks) {

		/** The process's, or {@code null} if {@code /proc} has no such process. */
		static @Nullable ProcStat read(long pid) throws IOException {
			try {
				return parse(Files.readString(PROC.resolve(pid + "/stat")));
			}
			catch (NoSuchFileException ex) {
				return null;
			}
		}

		/**
		 * Parses {@code pid (comm) state ppid ... starttime ...}; comm may hold spaces and
		 * parentheses, so fields are counted from the last {@code ')'}.
		 */
		static ProcStat parse(String stat) {
			String[] fields = stat.substring(stat.lastIndexOf(')') + 1).trim().split(" ");
			// fields[0] is field 3 (state); starttime is field 22
			return new ProcStat(fields[0].charAt(0), Long.parseLong(fields[19]));
		}

		boolean isDead() {
			return this.state == 'Z' || this.state == 'X' || this.state == 'x';
		}

	}

}
