package io.github.lockable.store.file;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a check of the lock directory found, for a health report: whether the store can
 * use it safely now, and if not, why.
 *
 * @param directory the configured lock directory
 * @param owner the name of the directory's owner, or {@code null} if it cannot be read
 * @param mode the directory's permissions, such as {@code rwx------}, or {@code null}
 * where the file system has none or they cannot be read
 * @param problem why the store cannot use the directory safely, or {@code null} if it
 * can: it is a directory, writable, owned by this process's user and writable by nobody
 * else, with no link on its path that another user could point elsewhere
 */
public record LockDirectoryStatus(Path directory, @Nullable String owner, @Nullable String mode,
		@Nullable String problem) {

	/**
	 * Whether the store can use the directory safely.
	 * @return whether there is no problem
	 */
	public boolean isUsable() {
		return this.problem == null;
	}

	/**
	 * The details a health report shows: {@code directory}, then {@code owner},
	 * {@code mode} and {@code reason} where known.
	 * @return the details, in that order
	 */
	public Map<String, Object> details() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("directory", this.directory.toString());
		if (this.owner != null) {
			details.put("owner", this.owner);
		}
		if (this.mode != null) {
			details.put("mode", this.mode);
		}
		if (this.problem != null) {
			details.put("reason", this.problem);
		}
		return details;
	}

}
