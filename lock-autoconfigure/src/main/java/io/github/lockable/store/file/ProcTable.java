package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.file.ProcessIdentity.ProcStat;

/**
 * The kernel's process table as a {@code /proc} file system shows it to this process.
 * <p>
 * A pid missing from {@code /proc} is not always a process that ended: {@code /proc}
 * mounted with {@code hidepid=invisible} (or {@code 2}, {@code ptraceable}), as systemd's
 * {@code ProtectProc=invisible} does, hides other users' processes. So the table only
 * {@link #showsEveryProcess() vouches} for a missing pid when the mount hides nothing, or
 * when it shows a process of another user (we are privileged, or in the mount's
 * {@code gid=} group). Found out once, when first needed: mount options do not change
 * under a running process.
 */
final class ProcTable {

	static final ProcTable SYSTEM = new ProcTable(Path.of("/proc"));

	private static final Set<String> HIDING = Set.of("2", "invisible", "4", "ptraceable");

	private final Path root;

	private volatile @Nullable Boolean showsEveryProcess;

	ProcTable(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	static ProcTable at(Path root) {
		return root.toAbsolutePath().normalize().equals(SYSTEM.root) ? SYSTEM : new ProcTable(root);
	}

	/**
	 * The process's {@code stat} line.
	 * @param pid the process id
	 * @return its fields, or {@code null} if this table has no such pid
	 * @throws IOException if the table cannot be read
	 */
	@Nullable ProcStat stat(long pid) throws IOException {
		try {
			return ProcStat.parse(Files.readString(this.root.resolve(Long.toString(pid)).resolve("stat"),
					StandardCharsets.UTF_8));
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	/**
	 * Whether a pid missing from this table is a process that ended, not one hidden.
	 * @return {@code true} when no process of the pid namespace is hidden from us
	 */
	boolean showsEveryProcess() {
		Boolean shows = this.showsEveryProcess;
		if (shows == null) {
			shows = !hidesProcesses() || showsAnotherUser();
			this.showsEveryProcess = shows;
		}
		return shows;
	}

	/**
	 * Reads the {@code hidepid} option of the mount at this table's root; a mount that
	 * cannot be found counts as hiding, and the processes on view decide.
	 */
	private boolean hidesProcesses() {
		List<String> mounts;
		try {
			mounts = Files.readAllLines(this.root.resolve("self/mountinfo"), StandardCharsets.UTF_8);
		}
		catch (IOException | RuntimeException ex) {
			return true;
		}
		String options = null;
		for (String mount : mounts) {
			// id parent major:minor root mount-point options [optional...] - type source super-options
			String[] fields = mount.split(" ");
			int separator = List.of(fields).indexOf("-");
			if (fields.length > 4 && separator > 0 && fields.length > separator + 3
					&& fields[4].equals(this.root.toString()) && fields[separator + 1].equals("proc")) {
				options = fields[separator + 3];
			}
		}
		if (options == null) {
			return true;
		}
		for (String option : options.split(",")) {
			if (option.startsWith("hidepid=") && HIDING.contains(option.substring("hidepid=".length()))) {
				return true;
			}
		}
		return false;
	}

	private boolean showsAnotherUser() {
		Long me = effectiveUid();
		if (me == null) {
			return false;
		}
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.root,
				(entry) -> entry.getFileName().toString().chars().allMatch(Character::isDigit))) {
			for (Path entry : entries) {
				if (Users.owner(entry) != me) {
					return true;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
		return false;
	}

	/**
	 * The effective user id in {@code self/status}.
	 * @return the user id, or {@code null} if unknown
	 */
	@Nullable Long effectiveUid() {
		try {
			for (String line : Files.readAllLines(this.root.resolve("self/status"), StandardCharsets.UTF_8)) {
				if (line.startsWith("Uid:")) {
					// real, effective, saved set, file system
					return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
		return null;
	}

}
