package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.file.JobProcesses.Job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real processes, as cron jobs run them: {@link FileLockJob} in JVMs of their own against
 * one lock directory.
 */
@Tag("slow") // JVMs started per case: about a minute in all; FileLockStoreTests covers one JVM
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FileLockStoreProcessTests {

	private static final String KEY = "lock:nightly-report";

	private static final String LONG_TTL_MS = "60000";

	@TempDir
	Path temp;

	private Path locks;

	private JobProcesses jobs;

	@BeforeEach
	void startNothingYet() {
		this.locks = this.temp.resolve("locks");
		this.jobs = new JobProcesses(this.temp.resolve("output"));
	}

	@AfterEach
	void killLeftovers() {
		this.jobs.close();
	}

	/**
	 * The seed article's test done properly: five processes released at the same instant
	 * by a barrier, twenty times; each time exactly one starts the job while it is still
	 * running in that one.
	 */
	@Test
	void fiveProcessesStartedTogetherRunTheJobOnce() throws IOException {
		for (int round = 1; round <= 20; round++) {
			List<String> answers = race(round, 5, KEY);
			assertThat(answers).as("round %d: %s", round, answers).containsOnlyOnce("started");
			assertThat(answers).as("round %d", round).containsOnly("started", "skipped");
		}
	}

	/**
	 * Reactor is optional for the file store: a process without it takes and releases a lock.
	 */
	@Test
	void aProcessWithoutReactorTakesAndReleasesTheLock() throws IOException {
		assertThat(this.jobs.startWithoutReactor(this.locks.toString(), KEY, LONG_TTL_MS, "0").awaitExit())
			.isEqualTo("started");
		try (Stream<Path> files = Files.list(this.locks)) {
			assertThat(files.map((file) -> file.getFileName().toString())).noneMatch((name) -> name.endsWith(".lock"));
		}
	}

	/**
	 * Two, three or four processes find the same stale lock at the same instant: exactly
	 * one reclaims it.
	 */
	@Test
	void processesReclaimingTheSameStaleLockAtOnceNeverBothWin() throws IOException {
		for (int round = 1; round <= 10; round++) {
			LockMetadata stale = LockFileFixtures.expired(KEY);
			LockFileFixtures.write(this.locks, stale);
			List<String> answers = race(round, 2 + round % 3, KEY);
			assertThat(answers).as("round %d: %s", round, answers).containsOnlyOnce("started");
			assertThat(answers).as("round %d", round).containsOnly("started", "skipped");
		}
	}

	/**
	 * Dead-holder rule: a holder killed with SIGKILL mid-job frees its lock as soon as its
	 * process is gone, long before its TTL; while it runs, the lock is held.
	 */
	@Test
	void lockOfAHolderKilledMidJobIsTakenOverOnceItsProcessIsGone() throws Exception {
		assumeTrue(ProcessIdentity.current().startTicks() != null, "dead holders are detected only with Linux /proc");
		Job holder = this.jobs.start(this.locks.toString(), KEY, LONG_TTL_MS, LONG_TTL_MS);
		assertThat(holder.awaitAnswer()).isEqualTo("started");
		Instant expiresAt = expiresAt();
		assertThat(this.jobs.run(this.locks.toString(), KEY, LONG_TTL_MS, "0")).as("while the holder runs")
			.isEqualTo("skipped");

		holder.process().destroyForcibly();
		assertThat(holder.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(this.jobs.run(this.locks.toString(), KEY, LONG_TTL_MS, "0")).as("after the kill")
			.isEqualTo("started");
		assertThat(Instant.now()).isBefore(expiresAt);
	}

	/**
	 * TTL rule, with dead-holder detection off: after a SIGKILL the lock stays held until
	 * its TTL runs out, and is taken over after that, never before.
	 */
	@Test
	void lockOfAHolderKilledMidJobIsTakenOverAfterItsTtl() throws Exception {
		// 15s: the skip below comes from a JVM started within the TTL; a busy machine may take
		// seconds to start one.
		Job holder = this.jobs.start(this.locks.toString(), KEY, "15000", LONG_TTL_MS);
		assertThat(holder.awaitAnswer()).isEqualTo("started");
		Instant expiresAt = expiresAt();
		holder.process().destroyForcibly();
		assertThat(holder.process().waitFor(30, TimeUnit.SECONDS)).isTrue();

		Instant launched = Instant.now();
		assertThat(this.jobs.run(this.locks.toString(), KEY, LONG_TTL_MS, "0", "--ttl-only"))
			.as("launched %s, TTL ends %s", launched, expiresAt)
			.isEqualTo("skipped");
		assertThat(Instant.now()).as("the skip happened before the TTL ran out").isBefore(expiresAt);

		List<Job> runs = new ArrayList<>();
		await().atMost(JobProcesses.TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
			Instant start = Instant.now();
			Job run = this.jobs.start(this.locks.toString(), KEY, LONG_TTL_MS, LONG_TTL_MS, "--ttl-only");
			runs.add(run);
			String answer = run.awaitAnswer();
			if (answer.equals("skipped")) {
				assertThat(start).as("a run launched after the TTL ran out skipped").isBefore(expiresAt);
			}
			return answer.equals("started");
		});
		Instant takenOver = Instant.parse(LockFileFixtures.json(this.locks, KEY).get("startedAt").asText());
		assertThat(takenOver).as("taken over at, after %d runs", runs.size()).isAfterOrEqualTo(expiresAt);
	}

	/**
	 * Starts processes that wait at a barrier, lets them all try the lock at once, collects
	 * every answer while the winner still holds the lock, then lets the winner finish.
	 */
	private List<String> race(int round, int processes, String key) throws IOException {
		Path control = Files.createDirectories(this.temp.resolve("control-" + round));
		try (Gate gate = new Gate(control.resolve("gate")); Gate hold = new Gate(control.resolve("hold"))) {
			List<Job> racers = new ArrayList<>();
			for (int i = 0; i < processes; i++) {
				racers.add(this.jobs.start(this.locks.toString(), key, LONG_TTL_MS, "0", control.toString()));
			}
			await().atMost(JobProcesses.TIMEOUT)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> readyCount(control) == processes);
			gate.open();
			List<String> answers = new ArrayList<>();
			for (Job racer : racers) {
				answers.add(racer.awaitAnswer());
			}
			hold.open();
			for (Job racer : racers) {
				racer.awaitExit();
			}
			return answers;
		}
	}

	private static long readyCount(Path control) throws IOException {
		try (Stream<Path> files = Files.list(control)) {
			return files.filter((file) -> file.getFileName().toString().startsWith("ready-")).count();
		}
	}

	private Instant expiresAt() {
		return Instant.parse(LockFileFixtures.json(this.locks, KEY).get("expiresAt").asText());
	}

	/**
	 * A file the test holds an exclusive OS lock on, so that job processes block on it
	 * without spinning, until {@link #open()}.
	 */
	private static final class Gate implements AutoCloseable {

		private final FileChannel channel;

		private final FileLock lock;

		Gate(Path file) throws IOException {
			this.channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
					StandardOpenOption.WRITE);
			this.lock = this.channel.lock();
		}

		void open() throws IOException {
			this.lock.release();
		}

		@Override
		public void close() throws IOException {
			this.channel.close();
		}

	}

}
