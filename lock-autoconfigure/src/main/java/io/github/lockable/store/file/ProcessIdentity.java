package io.github.lockable.store.file;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Who holds a lock: a process on a host, precise enough to tell, on Linux, whether that
 * very process is still running.
 * <p>
 * A pid alone is not an identity: pids are reused, and the same number means another
 * process in another pid namespace (a container) or after a reboot. So a holder is known
 * to be dead only when the boot id and the pid namespace are ours and the kernel's
 * process table has no such pid (and {@code /proc} hides no process from us, see
 * {@link ProcTable}), or has a zombie, or has one that started at another
 * moment. The start moment is the kernel's start time in clock ticks since boot, read from
 * {@code /proc/<pid>/stat}: exact and immune to wall-clock changes. (The start instant
 * that {@link ProcessHandle.Info#startInstant()} computes from the boot time in
 * {@code /proc/stat} can differ between two JVMs by a second or by a clock step, which
 * would make a live holder look like a reused pid.) Where any of these facts is unknown,
 * as on other systems than Linux, the holder counts as alive and its lock ends with its
 * TTL.
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

	ProcessIdentity {
		Objects.requireNonNull(host, "host must not be null");
	}

	/**
	 * The identity of this JVM, read once.
	 * @return the current process
	 */
	static ProcessIdentity current() {
		return Current.IDENTITY;
	}

	/**
	 * Whether the process this identity names is certainly gone, as seen from
	 * {@code observer}'s process table.
	 * @param observer the process that asks, normally {@link #current()}
	 * @param processes the observer's process table, normally {@link ProcTable#SYSTEM}
	 * @return {@code true} only when the process is known to be dead
	 */
	boolean isKnownDead(ProcessIdentity observer, ProcTable processes) {
		if (equals(observer)) {
			return false;
		}
		if (this.bootId == null || this.pidNamespace == null || this.startTicks == null
				|| !this.host.equals(observer.host) || !this.bootId.equals(observer.bootId)
				|| !this.pidNamespace.equals(observer.pidNamespace)) {
			return false;
		}
		ProcStat stat;
		try {
			stat = processes.stat(this.pid);
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
		if (stat == null) {
			return processes.showsEveryProcess();
		}
		return stat.isDead() || stat.startTicks() != this.startTicks;
	}

	/**
	 * The fields of {@code /proc/<pid>/stat} that matter here.
	 */
	record ProcStat(char state, long startTicks) {

		static ProcStat read(long pid) throws IOException {
			ProcStat stat = ProcTable.SYSTEM.stat(pid);
			if (stat == null) {
				throw new NoSuchFileException("/proc/" + pid + "/stat");
			}
			return stat;
		}

		/**
		 * Parses {@code pid (comm) state ppid ... starttime ...}; comm may hold spaces and
		 * parentheses, so fields are counted from the last {@code ')'}.
		 */
		static ProcStat parse(String stat) {
			int end = stat.lastIndexOf(')');
			if (end < 0) {
				throw new IllegalArgumentException("Not a /proc stat line");
			}
			String[] fields = stat.substring(end + 1).trim().split(" ");
			// fields[0] is field 3 (state); starttime is field 22
			return new ProcStat(fields[0].charAt(0), Long.parseLong(fields[19]));
		}

		boolean isDead() {
			return this.state == 'Z' || this.state == 'X' || this.state == 'x';
		}

	}

	private static final class Current {

		private static final ProcessIdentity IDENTITY = read();

		private static ProcessIdentity read() {
			long pid = ProcessHandle.current().pid();
			return new ProcessIdentity(hostName(), pid, readLine(PROC.resolve("sys/kernel/random/boot_id")),
					pidNamespace(), startTicks(pid));
		}

		private static String hostName() {
			String name = readLine(PROC.resolve("sys/kernel/hostname"));
			if (name != null && !name.isEmpty()) {
				return name;
			}
			try {
				return InetAddress.getLocalHost().getHostName();
			}
			catch (IOException | RuntimeException ex) {
				return "unknown";
			}
		}

		private static @Nullable String pidNamespace() {
			try {
				return Files.readSymbolicLink(PROC.resolve("self/ns/pid")).toString();
			}
			catch (IOException | RuntimeException ex) {
				return null;
			}
		}

		private static @Nullable Long startTicks(long pid) {
			try {
				return ProcStat.read(pid).startTicks();
			}
			catch (IOException | RuntimeException ex) {
				return null;
			}
		}

		private static @Nullable String readLine(Path file) {
			try {
				return Files.readString(file, StandardCharsets.UTF_8).trim();
			}
			catch (IOException | RuntimeException ex) {
				return null;
			}
		}

	}

}
