package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

import io.github.lockable.store.LockStoreException;

/**
 * The errno name of a failed file operation, for {@link LockStoreException#getCode()}.
 * Java reports most errors as an exception type or the C library's message; a message
 * the table does not know, such as one in another language, gives
 * {@link LockStoreException#GENERIC_CODE}.
 */
final class ErrorCodes {

	private static final String[][] MESSAGES = { { "Permission denied", "EACCES" },
			{ "Operation not permitted", "EPERM" }, { "No such file or directory", "ENOENT" },
			{ "Not a directory", "ENOTDIR" }, { "Is a directory", "EISDIR" }, { "No space left on device", "ENOSPC" },
			{ "Disk quota exceeded", "EDQUOT" }, { "Read-only file system", "EROFS" },
			{ "File name too long", "ENAMETOOLONG" }, { "Too many levels of symbolic links", "ELOOP" },
			{ "Too many open files", "EMFILE" }, { "Input/output error", "EIO" } };

	private ErrorCodes() {
	}

	static String of(IOException ex) {
		if (ex instanceof AccessDeniedException) {
			return "EACCES";
		}
		if (ex instanceof NoSuchFileException) {
			return "ENOENT";
		}
		if (ex instanceof NotDirectoryException) {
			return "ENOTDIR";
		}
		String message = (ex instanceof FileSystemException fileSystemException
				&& fileSystemException.getReason() != null) ? fileSystemException.getReason() : ex.getMessage();
		if (message != null) {
			for (String[] entry : MESSAGES) {
				if (message.contains(entry[0])) {
					return entry[1];
				}
			}
		}
		return LockStoreException.GENERIC_CODE;
	}

}
