package io.github.lockable.store.file;

import java.time.Instant;

/**
 * What a lock file holds: nothing ({@link Missing}), a complete lock ({@link LockMetadata}),
 * or something half written, damaged or foreign ({@link Unreadable}, last modified then).
 */
sealed interface LockFileState permits LockFileState.Missing, LockMetadata, LockFileState.Unreadable {

	enum Missing implements LockFileState {

		INSTANCE

	}

	record Unreadable(Instant modified) implements LockFileState {

	}

}
