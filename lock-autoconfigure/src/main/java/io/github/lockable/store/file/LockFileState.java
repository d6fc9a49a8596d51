package io.github.lockable.store.file;

import java.time.Instant;

/**
 * What a lock file holds.
 */
sealed interface LockFileState {

	/**
	 * There is no lock file.
	 */
	enum Missing implements LockFileState {

		INSTANCE

	}

	/**
	 * A complete lock file.
	 *
	 * @param metadata what it says
	 */
	record Present(LockMetadata metadata) implements LockFileState {

	}

	/**
	 * A lock file that is half written, damaged or foreign.
	 *
	 * @param modified when it was last modified
	 */
	record Unreadable(Instant modified) implements LockFileState {

	}

}
