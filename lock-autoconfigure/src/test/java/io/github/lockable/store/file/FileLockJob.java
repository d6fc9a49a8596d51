package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;

/**
 * A locked job in a process of its own, as a cron job runs one: tries the lock once and
 * prints exactly one line, {@code started}, {@code skipped} or {@code failed <code>}.
 * <p>
 * Arguments: {@code <lock directory> <key> <ttl ms> <hold ms> [<control directory>]
 * [--ttl-only]}. {@code hold ms} is how long the job runs after it started.
 * {@code --ttl-only} turns off the detection of dead holders.
 * <p>
 * With a control directory the process takes part in a race that the test conducts with
 * OS file locks, so that waiting costs no CPU: the test holds exclusive locks on the files
 * {@code gate} and {@code hold} in it. The process announces itself with a file
 * {@code ready-<pid>}, blocks on a shared lock of {@code gate} until the test lets every
 * racer go at once, tries the lock, and if it started the job, runs it until the test
 * lets go of {@code hold} instead of for {@code hold ms}.
 */
public final class FileLockJob {

	private static final Duration GUARD_TIMEOUT = Duration.ofSeconds(20);

	private FileLockJob() {
	}

	public static void main(String[] args) throws IOException {
		Path directory = Path.of(args[0]);
		String key = args[1];
		Duration ttl = Duration.ofMillis(Long.parseLong(args[2]));
		long holdMillis = Long.parseLong(args[3]);
		Path control = (args.length > 4 && !args[4].startsWith("--")) ? Path.of(args[4]) : null;
		boolean ttlOnly = args[args.length - 1].equals("--ttl-only");
		// The guard may wait long: several cold JVMs racing on a loaded machine once held it
		// past the default 2s, and these races test exclusion, not the timeout
		FileLockStore store = new FileLockStore(directory, "job-test", GUARD_TIMEOUT, Clock.systemUTC(), !ttlOnly);
		if (control != null) {
			Files.createFile(control.resolve("ready-" + ProcessHandle.current().pid()));
			awaitUnlocked(control.resolve("gate"));
		}
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, ttl)));
		if (result instanceof AcquireResult.Acquired acquired) {
			report("started");
			if (control != null) {
				awaitUnlocked(control.resolve("hold"));
			}
			else {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(holdMillis));
			}
			Stages.join(acquired.handle().release());
		}
		else if (result instanceof AcquireResult.Held) {
			report("skipped");
		}
		else {
			report("failed " + ((AcquireResult.Failed) result).cause().getCode());
		}
	}

	/**
	 * Blocks until the test releases its exclusive lock of the file; the kernel wakes every
	 * process that waits for it at once.
	 */
	private static void awaitUnlocked(Path file) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			channel.lock(0, Long.MAX_VALUE, true).release();
		}
	}

	private static void report(String line) {
		System.out.println(line);
		System.out.flush();
	}

}
