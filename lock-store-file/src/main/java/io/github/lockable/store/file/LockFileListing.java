package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.StoredLock;
import io.github.lockable.store.file.LockFileState.Present;

/**
 * The locks of a lock directory under a key prefix, read file by file without the guard.
 * Only names that may hold such a key are read ({@link LockFileName#mayStartWith}), and
 * reading stops at the first live lock beyond the limit. A file removed or replaced while
 * the directory is read is skipped, as are stale locks and files that are not complete
 * lock files; the token is never copied out of a file.
 */
final class LockFileListing {

	private LockFileListing() {
	}

	/**
	 * Lists the live locks under a prefix.
	 * @param directory the real path of the lock directory
	 * @param prefix the start of every listed key
	 * @param limit the most locks to list
	 * @param now the store's time
	 * @param stale the store's stale rule
	 * @return the locks, sorted by key
	 * @throws IOException if the directory or a lock file in it cannot be read
	 */
	static LockListing list(Path directory, String prefix, int limit, Instant now, Predicate<LockMetadata> stale)
			throws IOException {
		List<StoredLock> locks = new ArrayList<>();
		Predicate<String> mayMatch = LockFileName.mayStartWith(prefix);
		boolean truncated = false;
		try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.lock")) {
			for (Path file : files) {
				String name = file.getFileName().toString();
				if (name.startsWith(".") || !mayMatch.test(name)) {
					continue;
				}
				LockFileState state;
				try {
					state = LockDirectory.read(file);
				}
				catch (NoSuchFileException ex) {
					continue;
				}
				if (!(state instanceof Present present) || !present.metadata().job().startsWith(prefix)
						|| stale.test(present.metadata())) {
					continue;
				}
				if (locks.size() == limit) {
					truncated = true;
					break;
				}
				locks.add(stored(present.metadata(), now));
			}
		}
		locks.sort(Comparator.comparing(StoredLock::key));
		return new LockListing(locks, truncated);
	}

	private static StoredLock stored(LockMetadata lock, Instant now) {
		@Nullable LockHolder holder = (lock.instance() != null && lock.method() != null)
				? new LockHolder(lock.instance(), lock.holder().pid(), lock.method()) : null;
		return new StoredLock(lock.job(), lock.remainingTtl(now), holder, lock.startedAt());
	}

}
