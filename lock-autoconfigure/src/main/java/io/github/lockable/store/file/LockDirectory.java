package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lock directory that exists: its real path, its guard and its files.
 *
 * @param path the directory's real path
 * @param guard serializes changes of one lock
 * @param files the file operations
 */
record LockDirectory(Path path, LockGuard guard, LockFiles files) {

	private static final Logger logger = LoggerFactory.getLogger(LockDirectory.class);

	/**
	 * Creates the directory if missing, owner-only where the file system has POSIX
	 * permissions. An existing directory keeps its permissions, with a warning if other
	 * users may write to it: they could delete or forge locks.
	 * @param directory the configured directory
	 * @param hardLinks whether to publish lock files with hard links where possible
	 * @return the prepared directory
	 * @throws IOException if the directory does not exist and cannot be created, or a
	 * path element is not a directory
	 */
	static LockDirectory prepare(Path directory, boolean hardLinks) throws IOException {
		if (!Files.isDirectory(directory)) {
			try {
				// succeeds as well when another process creates the directory meanwhile
				Files.createDirectories(directory, FilePermissions.directory(directory));
			}
			catch (FileAlreadyExistsException ex) {
				throw new NotDirectoryException(directory.toString());
			}
		}
		else {
			warnIfShared(directory);
		}
		Path real = directory.toRealPath();
		return new LockDirectory(real, LockGuard.of(real), new LockFiles(real, hardLinks));
	}

	private static void warnIfShared(Path directory) {
		if (!FilePermissions.isPosix(directory)) {
			return;
		}
		try {
			PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class);
			Set<PosixFilePermission> permissions = attributes.permissions();
			if (permissions.contains(PosixFilePermission.OTHERS_WRITE)
					|| permissions.contains(PosixFilePermission.GROUP_WRITE)) {
				logger.warn("Lock directory {} is writable by other users, who could delete or forge locks; "
						+ "use a directory of its own with permissions rwx------", directory);
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Could not read the permissions of {}", directory, ex);
		}
	}

}
