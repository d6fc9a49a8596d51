package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockStoreException;

/**
 * The errno name of a failed file operation, for {@link LockStoreException#getCode()}.
 * <p>
 * Java names a few errors by the exception type; for the rest it only gives the C
 * library's message, which is translated in the process's C locale ({@code LANGUAGE},
 * {@code LC_ALL}, {@code LC_MESSAGES}, {@code LANG}), not in Java's default
 * {@link java.util.Locale}. So a message is matched against the English text and against
 * the {@link SystemMessages texts this process's C library really uses}, and a read-only
 * file system is recognised from the file store itself. An error none of this names gives
 * {@link LockStoreException#GENERIC_CODE}.
 */
final class ErrorCodes {

	private static final Map<Class<? extends IOException>, String> TYPED = Map.of(AccessDeniedException.class,
			"EACCES", NoSuchFileException.class, "ENOENT", NotDirectoryException.class, "ENOTDIR",
			FileAlreadyExistsException.class, "EEXIST", DirectoryNotEmptyException.class, "ENOTEMPTY",
			FileSystemLoopException.class, "ELOOP");

	private static final String[][] MESSAGES = { { "Permission denied", "EACCES" },
			{ "Operation not permitted", "EPERM" }, { "No such file or directory", "ENOENT" },
			{ "Not a directory", "ENOTDIR" }, { "Is a directory", "EISDIR" }, { "No space left on device", "ENOSPC" },
			{ "Disk quota exceeded", "EDQUOT" }, { "Read-only file system", "EROFS" },
			{ "File name too long", "ENAMETOOLONG" }, { "Too many levels of symbolic links", "ELOOP" },
			{ "Too many open files", "EMFILE" }, { "Input/output error", "EIO" } };

	private static final Map<String, String> ENGLISH = english();

	private ErrorCodes() {
	}

	static String of(IOException ex) {
		String typed = ofType(ex);
		if (typed != null) {
			return typed;
		}
		String message = (ex instanceof FileSystemException fileSystemException
				&& fileSystemException.getReason() != null) ? fileSystemException.getReason() : ex.getMessage();
		if (message == null || message.isBlank()) {
			return LockStoreException.GENERIC_CODE;
		}
		String code = find(ENGLISH, message);
		if (code == null) {
			code = find(SystemMessages.current().texts(), message);
		}
		return (code != null) ? code : LockStoreException.GENERIC_CODE;
	}

	/**
	 * As {@link #of(IOException)}, and {@code EROFS} for an otherwise unknown failure in
	 * a directory on a read-only file system, whose message no probe can learn.
	 * @param ex the failure
	 * @param directory the directory the operation worked in, or below which it would be
	 * @return the errno name
	 */
	static String of(IOException ex, Path directory) {
		String code = of(ex);
		if (code.equals(LockStoreException.GENERIC_CODE) && isReadOnly(directory)) {
			return "EROFS";
		}
		return code;
	}

	private static @Nullable String ofType(IOException ex) {
		for (Map.Entry<Class<? extends IOException>, String> entry : TYPED.entrySet()) {
			if (entry.getKey().isInstance(ex)) {
				return entry.getValue();
			}
		}
		return null;
	}

	private static @Nullable String find(Map<String, String> codeByText, String message) {
		for (Map.Entry<String, String> entry : codeByText.entrySet()) {
			if (message.contains(entry.getKey())) {
				return entry.getValue();
			}
		}
		return null;
	}

	private static boolean isReadOnly(Path directory) {
		Path existing = directory.toAbsolutePath();
		while (existing != null && !Files.exists(existing)) {
			existing = existing.getParent();
		}
		try {
			return existing != null && Files.getFileStore(existing).isReadOnly();
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	private static Map<String, String> english() {
		Map<String, String> codes = new LinkedHashMap<>();
		for (String[] entry : MESSAGES) {
			codes.put(entry[0], entry[1]);
		}
		return Collections.unmodifiableMap(codes);
	}

}
