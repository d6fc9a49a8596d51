package io.github.lockable.store.file;

import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Owner-only permissions for what the store creates: {@code rwx------} for the lock
 * directory, {@code rw-------} for files, where the file system has POSIX permissions;
 * elsewhere the file system's defaults.
 */
final class FilePermissions {

	private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];

	private static final FileAttribute<?>[] DIRECTORY = {
			PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")) };

	private static final FileAttribute<?>[] FILE = {
			PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")) };

	private FilePermissions() {
	}

	static FileAttribute<?>[] directory(Path directory) {
		return isPosix(directory) ? DIRECTORY : NONE;
	}

	static FileAttribute<?>[] file(Path file) {
		return isPosix(file) ? FILE : NONE;
	}

	static boolean isPosix(Path path) {
		return path.getFileSystem().supportedFileAttributeViews().contains("posix");
	}

}
