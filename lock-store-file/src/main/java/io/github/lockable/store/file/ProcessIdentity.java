package io.github.lockable.store.file;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

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
 * {@link ProcessHandle.Info#startInstant()}). A missing pid counts only where {@code /proc}
 * hides no process from us: not under {@code hidepid=invisible} (systemd's
 * {@code ProtectProc=invisible}) unless it shows us another user's process. Where any of
 * this is unknown, as on other systems, the holder counts as alive and the TTL decides.
 *
 * @param host the host name
 * @param pid the process id
 * @param bootId the kernel's boot id, if known
 * @param pidNamespace the pid namespace, such as {@code pid:[4026531836]}, if known
 * @param startTicks the process start time in clock ticks since boot, if known
 */
record ProcessIdentity(String host, long pid, @Nullable String bootId, @Nullable String pidNamespace,
		@Nullable Long startTicks) {

	private static final Set<String> HIDING = Set.of("2", "invisible", "4", "ptraceable");

	/** Whether a process table shows every process; mount options do not change under us. */
	private static final Map<Path, Boolean> showsEveryProcess = new ConcurrentHashMap<>();

	ProcessIdentity {
		Objects.requireNonNull(host, "host must not be null");
	}

	/** The identity of this JVM, read once. */
	static ProcessIdentity current() {
		return Current.IDENTITY;
	}

	/**
	 * Whether the process this identity names is certainly gone.
	 * @param observer the process that asks, normally {@link #current()}
	 * @param proc the observer's process table, normally {@code /proc}
	 * @return {@code true} only when the process is known to be dead
	 */
	boolean isKnownDead(ProcessIdentity observer, Path proc) {
		if (equals(observer) || this.startTicks == null || !this.host.equals(observer.host)
				|| !Objects.equals(this.bootId, observer.bootId) || this.bootId == null
				|| !Objects.equals(this.pidNamespace, observer.pidNamespace) || this.pidNamespace == null) {
			return false;
		}
		try {
			ProcStat stat = ProcStat.read(proc, this.pid);
			return (stat == null) ? showsEveryProcess.computeIfAbsent(proc, ProcessIdentity::showsEveryProcess)
					: stat.isDead() || stat.startTicks() != this.startTicks;
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	private static boolean showsEveryProcess(Path proc) {
		try {
			String options = null;
			for (String mount : Files.readAllLines(proc.resolve("self/mountinfo"), StandardCharsets.UTF_8)) {
				// id parent major:minor root mount-point options [optional...] - type source super-options
				List<String> fields = List.of(mount.split(" "));
				int separator = fields.indexOf("-");
				if (separator > 4 && fields.size() > separator + 3 && fields.get(4).equals(proc.toString())
						&& fields.get(separator + 1).equals("proc")) {
					options = fields.get(separator + 3);
				}
			}
			return (options != null && Stream.of(options.split(","))
				.noneMatch((option) -> option.startsWith("hidepid=") && HIDING.contains(option.substring(8))))
					|| showsAnotherUsersProcess(proc);
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	/** Hiding, or a mount not found: only a process of another user on view vouches. */
	private static boolean showsAnotherUsersProcess(Path proc) throws IOException {
		long me = DirectorySafety.effectiveUid(proc);
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc,
				(entry) -> entry.getFileName().toString().chars().allMatch(Character::isDigit))) {
			for (Path entry : entries) {
				if (DirectorySafety.owner(entry) != me) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * The fields of {@code /proc/<pid>/stat} that matter here.
	 */
	record ProcStat(char state, long startTicks) {

		static @Nullable ProcStat read(Path proc, long pid) throws IOException {
			try {
				return parse(Files.readString(proc.resolve(pid + "/stat"), StandardCharsets.UTF_8));
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

	private static final class Current {

		private static final ProcessIdentity IDENTITY = read(Path.of("/proc"));

		private static ProcessIdentity read(Path proc) {
			long pid = ProcessHandle.current().pid();
			String host = readLine(proc.resolve("sys/kernel/hostname"));
			Long startTicks = null;
			String pidNamespace = null;
			try {
				startTicks = ProcStat.read(proc, pid).startTicks();
				pidNamespace = Files.readSymbolicLink(proc.resolve("self/ns/pid")).toString();
			}
			catch (IOException | RuntimeException ex) {
				startTicks = null;
				pidNamespace = null;
			}
			if (host == null || host.isEmpty()) {
				try {
					host = InetAddress.getLocalHost().getHostName();
				}
				catch (IOException | RuntimeException ex) {
					host = "unknown";
				}
			}
			return new ProcessIdentity(host, pid, readLine(proc.resolve("sys/kernel/random/boot_id")), pidNamespace,
					startTicks);
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
