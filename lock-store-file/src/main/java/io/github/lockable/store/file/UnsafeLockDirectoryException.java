package io.github.lockable.store.file;

import java.nio.file.Path;

/**
 * A lock directory that another user could tamper with: owned by someone else, writable
 * by its group or by others, or reached through a symbolic link that another user owns.
 * Such a user could plant lock files to stop jobs, or delete them to let two run at once.
 */
public class UnsafeLockDirectoryException extends IllegalStateException {

	/** The refused directory. */
	private final Path directory;

	/**
	 * Creates the exception.
	 * @param directory the configured lock directory
	 * @param reason why it is unsafe, naming the path at fault
	 */
	public UnsafeLockDirectoryException(Path directory, String reason) {
		super("Lock directory " + directory + " is unsafe: " + reason);
		this.directory = directory;
	}

	/**
	 * The configured lock directory.
	 * @return the directory
	 */
	public Path getDirectory() {
		return this.directory;
	}

}
