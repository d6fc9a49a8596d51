package io.github.lockable.store.file;

import java.time.Instant;

/**
 * What a lock file holds: nothing ({@link Missing}), a complete lock ({@link Present}), or
 * something half written, damaged or foreign ({@link Unreadable}, last modified then).
 */
sealed interface LockFileState {

	enum Missing implements LockFileState {

		INSTANCE

	}

	record Present(LockMetadata metadata) implements LockFileState {

	}

	record Unreadable(Instant modified) implements LockFileState {

	}

}
