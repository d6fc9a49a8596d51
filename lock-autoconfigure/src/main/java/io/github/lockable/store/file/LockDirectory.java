package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * A lock directory that exists: its real path, its guard and its files.
 *
 * @param path the directory's real path
 * @param guard serializes changes of one lock
 * @param files the file operations
 */
record LockDirectory(Path path, LockGuard guard, LockFiles files) {

	/**
	 * Creates the directory if missing, owner-only where the file system has POSIX
	 * permissions, and refuses it if another user could tamper with it (see
	 * {@link DirectorySafety}).
	 * @param directory the configured directory
	 * @param hardLinks whether to publish lock files with hard links where possible
	 * @return the prepared directory
	 * @throws IOException if the directory does not exist and cannot be created, or a
	 * path element is not a directory
	 * @throws UnsafeLockDirectoryException if another user could tamper with it
	 */
	static LockDirectory prepare(Path directory, boolean hardLinks) throws IOException {
		// before creating anything through a link another user owns, and after, for the new part
		DirectorySafety.check(directory);
		if (!Files.isDirectory(directory)) {
			try {
				// succeeds as well when another process creates the directory meanwhile
				Files.createDirectories(directory, FilePermissions.directory(directory));
			}
			catch (FileAlreadyExistsException ex) {
				throw new NotDirectoryException(directory.toString());
			}
			DirectorySafety.check(directory);
		}
		Path real = directory.toRealPath();
		return new LockDirectory(real, LockGuard.of(real), new LockFiles(real, hardLinks));
	}

}
