package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreHealth;

/**
 * Refuses a lock directory that another user could tamper with, and gives what the store
 * creates owner-only permissions ({@code rwx------}, {@code rw-------}). The directory must
 * be owned by this process's effective user and writable by nobody else, and every
 * symbolic link on the way to it, including links inside the targets of links, must be
 * owned by that user or by root ({@code /var/run -> /run} is fine). The parts of the path
 * that do not exist yet are left to the store, which creates them. Where the file system
 * has no POSIX permissions nothing is checked and the file system's defaults apply.
 */
final class DirectorySafety {

	/** As Linux: more links inside links is {@code ELOOP}. */
	private static final int MAX_LINKS = 40;

	private static final Set<PosixFilePermission> WRITABLE_BY_OTHERS = Set.of(PosixFilePermission.GROUP_WRITE,
			PosixFilePermission.OTHERS_WRITE);

	private static final FileAttribute<?>[] OWNER_ONLY_DIRECTORY = {
			PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")) };

	private static final FileAttribute<?>[] OWNER_ONLY_FILE = {
			PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")) };

	private static final FileAttribute<?>[] NONE = {};

	private DirectorySafety() {
	}

	static boolean isPosix(Path path) {
		return path.getFileSystem().supportedFileAttributeViews().contains("posix");
	}

	static FileAttribute<?>[] ownerOnlyDirectory(Path directory) {
		return isPosix(directory) ? OWNER_ONLY_DIRECTORY : NONE;
	}

	static FileAttribute<?>[] ownerOnlyFile(Path file) {
		return isPosix(file) ? OWNER_ONLY_FILE : NONE;
	}

	/**
	 * This process's effective user id: from {@code /proc/self/status}, else the owner of a
	 * file this process creates, which is the same thing.
	 */
	static long effectiveUid() throws IOException {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith("Uid:")) {
					// real, effective, saved set, file system
					return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux
		}
		Path probe = Files.createTempFile("lockable-uid", ".tmp");
		try {
			return owner(probe);
		}
		finally {
			Files.deleteIfExists(probe);
		}
	}

	/** The owner of a file, of a link itself rather than its target. */
	static long owner(Path file) throws IOException {
		return ((Number) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
	}

	/**
	 * Checks the directory, as far as it exists.
	 * @param directory the absolute lock directory
	 * @throws UnsafeLockDirectoryException if another user could tamper with it
	 * @throws IOException if the path cannot be read
	 */
	static void check(Path directory) throws IOException {
		if (!isPosix(directory)) {
			return;
		}
		long me = effectiveUid();
		Path real = followLinks(directory, directory, me, 0);
		if (real == null || !Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		long owner = owner(real);
		if (owner != me) {
			throw new UnsafeLockDirectoryException(directory, real + " is owned by uid " + owner
					+ ", not by this process's user (uid " + me + "); use a directory of its own");
		}
		Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(real, LinkOption.NOFOLLOW_LINKS);
		if (permissions.stream().anyMatch(WRITABLE_BY_OTHERS::contains)) {
			throw new UnsafeLockDirectoryException(directory, real + " is writable by its group or by others ("
					+ PosixFilePermissions.toString(permissions)
					+ "), who could plant or delete lock files; use rwx------ (chmod 700)");
		}
	}

	/**
	 * The path with every link on it replaced by its target, once the link's owner is
	 * checked, or {@code null} if a part of it does not exist yet.
	 */
	private static @Nullable Path followLinks(Path directory, Path path, long me, int depth) throws IOException {
		Path current = path.getRoot();
		for (Path name : path) {
			Path next = current.resolve(name).normalize();
			if (Files.isSymbolicLink(next)) {
				long owner = owner(next);
				if (owner != me && owner != 0) {
					throw new UnsafeLockDirectoryException(directory, "the symbolic link " + next + " on its path is owned by uid "
							+ owner + ", who could point it elsewhere; only links of uid " + me + " or root are followed");
				}
				if (depth == MAX_LINKS) {
					throw new FileSystemLoopException(directory.toString());
				}
				next = followLinks(directory, current.resolve(Files.readSymbolicLink(next)), me, depth + 1);
			}
			else if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
				return null;
			}
			if (next == null) {
				return null;
			}
			current = next;
		}
		return current;
	}

	/**
	 * Checks the directory as {@link #check(Path)} does, and that it exists, is a directory
	 * and is writable, reporting the problem instead of throwing.
	 * @param directory the absolute lock directory
	 * @return whether it is usable, and its {@code directory}, then {@code owner},
	 * {@code mode} and {@code reason} where known
	 */
	static LockStoreHealth.Status status(Path directory) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("directory", directory.toString());
		String problem;
		try {
			details.put("owner", Files.getOwner(directory).getName());
			if (isPosix(directory)) {
				details.put("mode", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)));
			}
			check(directory);
			problem = !Files.isDirectory(directory) ? "it is not a directory"
					: !Files.isWritable(directory) ? "it is not writable by this process" : null;
		}
		catch (NoSuchFileException ex) {
			problem = "it does not exist";
		}
		catch (UnsafeLockDirectoryException ex) {
			problem = ex.getMessage();
		}
		catch (IOException ex) {
			problem = "it cannot be read: " + ex;
		}
		if (problem != null) {
			details.put("reason", problem);
		}
		return new LockStoreHealth.Status(problem == null, details);
	}

}
