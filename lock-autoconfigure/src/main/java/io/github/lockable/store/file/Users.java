package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * User ids of this process and of files, as the kernel compares them.
 */
final class Users {

	private Users() {
	}

	/**
	 * This process's effective user id: from {@code /proc/self/status} on Linux, else the
	 * owner of a file this process creates, which is the same thing.
	 * @return the user id
	 * @throws IOException if neither can be read
	 */
	static long effectiveUid() throws IOException {
		Long uid = ProcTable.SYSTEM.effectiveUid();
		if (uid != null) {
			return uid;
		}
		Path probe = Files.createTempFile("lockable-uid", ".tmp");
		try {
			return owner(probe);
		}
		finally {
			Files.deleteIfExists(probe);
		}
	}

	/**
	 * The owner of a file, of a link itself rather than its target.
	 * @param file the file
	 * @return its owner's user id
	 * @throws IOException if it cannot be read
	 */
	static long owner(Path file) throws IOException {
		return ((Number) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
	}

}
