package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.file.ProcessIdentity.ProcStat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * When a lock is stale and who gets it: past its TTL always; at once when its holder is
 * known to be dead on this host; never when in doubt; and never to two callers.
 */
class FileLockStoreStaleLockTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@TempDir
	Path directory;

	private ExecutorService pool;

	@AfterEach
	void stopPool() {
		if (this.pool != null) {
			this.pool.shutdownNow();
		}
	}

	@Test
	void lockIsReclaimedAtItsExpiryAndNotAMillisecondBefore() {
		MutableClock clock = new MutableClock(Instant.parse("2026-07-27T23:00:00Z"));
		FileLockStore store = new FileLockStore(this.directory, null, FileLockStore.DEFAULT_TIMEOUT, clock, true);
		LockHandle first = acquired(store, "expiry", Duration.ofSeconds(10));
		clock.advance(Duration.ofMillis(9_999));
		assertThat(Stages.join(store.acquire(new LockRequest("expiry", TTL)))).isInstanceOf(AcquireResult.Held.class);
		clock.advance(Duration.ofMillis(1));
		LockHandle second = acquired(store, "expiry", TTL);
		assertThat(Stages.join(first.extend(TTL))).isFalse();
		assertThat(Stages.join(first.release())).isEqualTo(ReleaseResult.NOT_OWNER);
		assertThat(LockFileFixtures.json(this.directory, "expiry").get("token").asText())
			.isEqualTo(second.lease().token());
		assertThat(Stages.join(second.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void lockOfAnExitedProcessIsReclaimedAtOnce() throws Exception {
		assumeLinuxProcessTable();
		ProcessIdentity exited = exitedProcess();
		LockFileFixtures.write(this.directory, LockFileFixtures.metadata("dead", exited, Instant.now(), TTL));
		FileLockStore store = new FileLockStore(this.directory);
		LockHandle handle = acquired(store, "dead", TTL);
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void lockOfAnExitedProcessWaitsForItsTtlWhenDeadHoldersAreNotDetected() throws Exception {
		assumeLinuxProcessTable();
		LockFileFixtures.write(this.directory, LockFileFixtures.metadata("dead", exitedProcess(), Instant.now(), TTL));
		FileLockStore store = new FileLockStore(this.directory, null,
				FileLockStore.DEFAULT_TIMEOUT, Clock.systemUTC(), false);
		assertThat(Stages.join(store.acquire(new LockRequest("dead", TTL)))).isInstanceOf(AcquireResult.Held.class);
	}

	@Test
	void lockOfAReusedPidIsReclaimedAtOnce() {
		assumeLinuxProcessTable();
		ProcessIdentity me = ProcessIdentity.current();
		ProcessIdentity earlierProcessWithMyPid = new ProcessIdentity(me.host(), me.pid(), me.bootId(),
				me.pidNamespace(), me.startTicks() - 1);
		LockFileFixtures.write(this.directory,
				LockFileFixtures.metadata("reused", earlierProcessWithMyPid, Instant.now(), TTL));
		acquired(new FileLockStore(this.directory), "reused", TTL);
	}

	@Test
	void lockOfALiveProcessIsHeld() throws Exception {
		assumeLinuxProcessTable();
		Process sleeper = new ProcessBuilder("sleep", "60").start();
		try {
			ProcessIdentity live = identityOf(sleeper.pid());
			LockFileFixtures.write(this.directory, LockFileFixtures.metadata("live", live, Instant.now(), TTL));
			assertThat(Stages.join(new FileLockStore(this.directory).acquire(new LockRequest("live", TTL))))
				.isInstanceOf(AcquireResult.Held.class);
		}
		finally {
			sleeper.destroyForcibly();
		}
	}

	@Test
	void holderIsNeverDeclaredDeadWhenItMightLiveElsewhere() throws Exception {
		assumeLinuxProcessTable();
		ProcessIdentity exited = exitedProcess();
		List<ProcessIdentity> doubtful = List.of(
				new ProcessIdentity("other-host", exited.pid(), exited.bootId(), exited.pidNamespace(),
						exited.startTicks()),
				new ProcessIdentity(exited.host(), exited.pid(), "another-boot", exited.pidNamespace(),
						exited.startTicks()),
				new ProcessIdentity(exited.host(), exited.pid(), exited.bootId(), "pid:[1]", exited.startTicks()),
				new ProcessIdentity(exited.host(), exited.pid(), null, null, null),
				new ProcessIdentity(exited.host(), exited.pid(), exited.bootId(), exited.pidNamespace(), null));
		FileLockStore store = new FileLockStore(this.directory);
		for (ProcessIdentity holder : doubtful) {
			LockFileFixtures.write(this.directory, LockFileFixtures.metadata("doubt", holder, Instant.now(), TTL));
			assertThat(Stages.join(store.acquire(new LockRequest("doubt", TTL)))).as("%s", holder)
				.isInstanceOf(AcquireResult.Held.class);
		}
	}

	@Test
	void procStatIsParsedFromTheLastParenthesis() {
		String stat = "4312 (my (odd) job) Z 1 4312 4312 0 -1 4194304 100 0 0 0 1 2 0 0 20 0 1 0 81234567 1000 10";
		ProcStat parsed = ProcStat.parse(stat);
		assertThat(parsed.state()).isEqualTo('Z');
		assertThat(parsed.startTicks()).isEqualTo(81234567L);
		assertThat(parsed.isDead()).isTrue();
		assertThat(ProcStat.parse(stat.replace(" Z ", " S ")).isDead()).isFalse();
	}

	/**
	 * Many stores in as many threads find the same stale lock at once, hundreds of times:
	 * exactly one gets it each time. (The threads share the JVM's guard stripes; the
	 * cross-process test covers the OS lock.)
	 */
	@Test
	void callersReclaimingTheSameStaleLockAtOnceNeverBothWin() throws Exception {
		int callers = 6;
		int rounds = 300;
		this.pool = Executors.newFixedThreadPool(callers);
		CyclicBarrier barrier = new CyclicBarrier(callers);
		List<FileLockStore> stores = new ArrayList<>();
		for (int i = 0; i < callers; i++) {
			stores.add(new FileLockStore(this.directory));
		}
		for (int round = 0; round < rounds; round++) {
			String key = "stale-" + round;
			LockFileFixtures.write(this.directory, LockFileFixtures.expired(key));
			List<Future<AcquireResult>> results = new ArrayList<>();
			for (FileLockStore store : stores) {
				results.add(this.pool.submit(() -> {
					barrier.await(10, TimeUnit.SECONDS);
					return Stages.join(store.acquire(new LockRequest(key, TTL)));
				}));
			}
			List<AcquireResult> answers = new ArrayList<>();
			for (Future<AcquireResult> result : results) {
				answers.add(result.get(30, TimeUnit.SECONDS));
			}
			List<AcquireResult> winners = answers.stream().filter(AcquireResult.Acquired.class::isInstance).toList();
			assertThat(winners).as("round %d: %s", round, answers).hasSize(1);
			assertThat(answers).as("round %d", round).hasOnlyElementsOfTypes(AcquireResult.Acquired.class,
					AcquireResult.Held.class);
			assertThat(LockFileFixtures.json(this.directory, key).get("token").asText())
				.isEqualTo(((AcquireResult.Acquired) winners.get(0)).handle().lease().token());
		}
	}

	private static LockHandle acquired(FileLockStore store, String key, Duration ttl) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, ttl)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	private static void assumeLinuxProcessTable() {
		ProcessIdentity me = ProcessIdentity.current();
		assumeTrue(me.bootId() != null && me.pidNamespace() != null && me.startTicks() != null,
				"dead holders are detected only with Linux /proc");
	}

	/** The identity of a process that ran on this host and has exited. */
	private static ProcessIdentity exitedProcess() throws Exception {
		Process process = new ProcessBuilder("sleep", "60").start();
		ProcessIdentity identity = identityOf(process.pid());
		process.destroyForcibly();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		return identity;
	}

	private static ProcessIdentity identityOf(long pid) throws IOException {
		ProcessIdentity me = ProcessIdentity.current();
		return new ProcessIdentity(me.host(), pid, me.bootId(), me.pidNamespace(), ProcStat.read(pid).startTicks());
	}

}
