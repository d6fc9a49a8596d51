package io.github.lockable.store.file;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link FileLockStore} works, where tests need something other than the defaults.
 *
 * @param clock the wall clock that lock files are written and judged by
 * @param detectDeadHolders whether a lock of a holder known to be dead is reclaimed at
 * once instead of at the end of its TTL
 * @param guardTimeout longest wait for the guard of one lock
 * @param hardLinks whether lock files are published with hard links where the file system
 * has them
 * @param procRoot where the process table is mounted, {@code /proc} but in tests
 * @param threads the bounds of the thread pool of the asynchronous calls
 */
record FileStoreOptions(Clock clock, boolean detectDeadHolders, Duration guardTimeout, boolean hardLinks,
		Path procRoot, FileStoreThreads.Limits threads) {

	/** As long as the default {@code lockable.acquire-timeout}. */
	static final Duration DEFAULT_GUARD_TIMEOUT = Duration.ofSeconds(2);

	FileStoreOptions {
		Objects.requireNonNull(clock, "clock must not be null");
		Objects.requireNonNull(guardTimeout, "guardTimeout must not be null");
		Objects.requireNonNull(procRoot, "procRoot must not be null");
		Objects.requireNonNull(threads, "threads must not be null");
		if (guardTimeout.isNegative() || guardTimeout.isZero()) {
			throw new IllegalArgumentException("guardTimeout must be positive, was " + guardTimeout);
		}
	}

	static FileStoreOptions defaults() {
		return new FileStoreOptions(Clock.systemUTC(), true, DEFAULT_GUARD_TIMEOUT, true, Path.of("/proc"),
				FileStoreThreads.Limits.DEFAULT);
	}

	FileStoreOptions withClock(Clock clock) {
		return new FileStoreOptions(clock, this.detectDeadHolders, this.guardTimeout, this.hardLinks,
				this.procRoot, this.threads);
	}

	FileStoreOptions withDetectDeadHolders(boolean detectDeadHolders) {
		return new FileStoreOptions(this.clock, detectDeadHolders, this.guardTimeout, this.hardLinks,
				this.procRoot, this.threads);
	}

	FileStoreOptions withGuardTimeout(Duration guardTimeout) {
		return new FileStoreOptions(this.clock, this.detectDeadHolders, guardTimeout, this.hardLinks,
				this.procRoot, this.threads);
	}

	FileStoreOptions withHardLinks(boolean hardLinks) {
		return new FileStoreOptions(this.clock, this.detectDeadHolders, this.guardTimeout, hardLinks, this.procRoot,
				this.threads);
	}

	FileStoreOptions withProcRoot(Path procRoot) {
		return new FileStoreOptions(this.clock, this.detectDeadHolders, this.guardTimeout, this.hardLinks, procRoot,
				this.threads);
	}

	FileStoreOptions withThreads(FileStoreThreads.Limits threads) {
		return new FileStoreOptions(this.clock, this.detectDeadHolders, this.guardTimeout, this.hardLinks,
				this.procRoot, threads);
	}

}
