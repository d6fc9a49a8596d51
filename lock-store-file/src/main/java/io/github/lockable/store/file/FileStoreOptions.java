package io.github.lockable.store.file;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link FileLockStore} works; tests set other values than {@link #defaults(Duration)}.
 *
 * @param clock the wall clock that lock files are written and judged by
 * @param detectDeadHolders whether the lock of a holder known to be dead is reclaimed at
 * once instead of at the end of its TTL
 * @param guardTimeout longest wait for the guard of the lock directory
 * @param hardLinks whether lock files are published with hard links where possible
 * @param procRoot where the process table is mounted, {@code /proc} but in tests
 */
record FileStoreOptions(Clock clock, boolean detectDeadHolders, Duration guardTimeout, boolean hardLinks,
		Path procRoot) {

	/** As long as the default {@code lockable.acquire-timeout}. */
	static final Duration DEFAULT_GUARD_TIMEOUT = Duration.ofSeconds(2);

	FileStoreOptions {
		Objects.requireNonNull(clock, "clock must not be null");
		Objects.requireNonNull(procRoot, "procRoot must not be null");
		if (guardTimeout.isNegative() || guardTimeout.isZero()) {
			throw new IllegalArgumentException("guardTimeout must be positive, was " + guardTimeout);
		}
	}

	static FileStoreOptions defaults(Duration guardTimeout) {
		return new FileStoreOptions(Clock.systemUTC(), true, guardTimeout, true, Path.of("/proc"));
	}

}
