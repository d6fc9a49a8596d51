package io.github.lockable.historycheck;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.lockable.test.redis.FaultyProxy;
import io.github.lockable.test.redis.ProcessRedisServer;
import io.github.lockable.test.redis.RedisSentinelTestServer;

import org.jspecify.annotations.Nullable;

import static org.awaitility.Awaitility.await;

/**
 * Injects a run's fault again and again, each time between a {@code fault-start} and a
 * {@code fault-end} event in the history, so the checker knows what can explain an overlap.
 */
final class FaultDriver {

	/** Longer than the TTL, so that a frozen holder's lease expires. */
	private static final Duration FREEZE = Mode.TTL.plusSeconds(1);

	private static final Duration CLIENT_PAUSE = Duration.ofMillis(1500);

	private static final Duration NETWORK_CUT = Duration.ofSeconds(2);

	/** The last events of a worker that holds its lock and has not written yet. */
	private static final Set<String> HOLDING = Set.of("grant", "check", "held");

	private static final Duration QUIET = Duration.ofMillis(2500);

	private final Mode mode;

	private final FencedResource resource;

	private final ProcessRedisServer lockServer;

	private final FaultyProxy proxy;

	@Nullable
	private final RedisSentinelTestServer sentinel;

	private final List<Process> workers;

	FaultDriver(Mode mode, FencedResource resource, ProcessRedisServer lockServer, FaultyProxy proxy,
			@Nullable RedisSentinelTestServer sentinel, List<Process> workers) {
		this.mode = mode;
		this.resource = resource;
		this.lockServer = lockServer;
		this.proxy = proxy;
		this.sentinel = sentinel;
		this.workers = workers;
	}

	/**
	 * Injects faults until the run's duration is over, a quiet period before and after each.
	 * The driver paces itself by the clock: the load runs on meanwhile.
	 */
	void drive(Duration duration) throws InterruptedException {
		long deadline = System.nanoTime() + duration.toNanos();
		Thread.sleep(QUIET.toMillis());
		while (System.nanoTime() + QUIET.plus(FREEZE).toNanos() < deadline) {
			injectOnce();
			Thread.sleep(QUIET.toMillis());
		}
		long left = deadline - System.nanoTime();
		if (left > 0) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
	}

	private void injectOnce() throws InterruptedException {
		switch (this.mode) {
			case PAUSE -> freezeAHolder();
			case RESTART, RESTART_DELAYED -> window(() -> {
				this.lockServer.stop();
				this.lockServer.start();
			});
			case CLIENT_PAUSE, LETTUCE_TIMEOUT -> window(() -> {
				this.lockServer.pause(CLIENT_PAUSE);
				sleep(CLIENT_PAUSE);
			});
			case NETWORK -> window(() -> {
				this.proxy.halfOpen();
				sleep(NETWORK_CUT);
				this.proxy.heal();
			});
			case FAILOVER -> window(this::failOver);
			default -> {
			}
		}
	}

	/**
	 * Fails over and waits until the sentinels agree on the new master and its replica is
	 * in sync again.
	 */
	private void failOver() {
		RedisSentinelTestServer deployment = java.util.Objects.requireNonNull(this.sentinel);
		int before = deployment.failover();
		await().atMost(Duration.ofSeconds(30)).until(() -> deployment.masterPort() != before);
		deployment.awaitStable();
	}

	/**
	 * Freezes a worker the history shows holding a lock; one that moved on before the
	 * signal landed is thawed at once and another tried.
	 */
	private void freezeAHolder() {
		AtomicReference<Process> frozen = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			Optional<Process> holder = aHolder();
			if (holder.isEmpty()) {
				return false;
			}
			signal(holder.get(), "STOP");
			if (HOLDING.contains(this.resource.state(workerIdOf(holder.get())))) {
				frozen.set(holder.get());
				return true;
			}
			signal(holder.get(), "CONT");
			return false;
		});
		window(() -> {
			try {
				sleep(FREEZE);
			}
			finally {
				signal(frozen.get(), "CONT");
			}
		});
	}

	private Optional<Process> aHolder() {
		return this.workers.stream()
			.filter((worker) -> "grant".equals(this.resource.state(workerIdOf(worker))))
			.findAny();
	}

	private String workerIdOf(Process worker) {
		return HistoryRun.workerId(this.workers.indexOf(worker));
	}

	private void window(Runnable fault) {
		this.resource.record(History.DRIVER, "fault-start", this.mode.displayName(), 0, "");
		try {
			fault.run();
		}
		finally {
			this.resource.record(History.DRIVER, "fault-end", this.mode.displayName(), 0, "");
		}
	}

	/**
	 * Thaws every worker, in case the run ended during a freeze.
	 */
	void thawAll() {
		this.workers.stream().filter(Process::isAlive).forEach((worker) -> signal(worker, "CONT"));
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted during a fault", ex);
		}
	}

	private static void signal(Process process, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
			if (!kill.waitFor(10, TimeUnit.SECONDS)) {
				kill.destroyForcibly();
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run kill -" + signal, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling a worker", ex);
		}
	}

}
