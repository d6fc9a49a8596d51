package io.github.lockable.historycheck;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.lockable.test.redis.FaultyProxy;
import io.github.lockable.test.redis.ProcessRedisServer;
import io.github.lockable.test.redis.RedisSentinelTestServer;

import static org.awaitility.Awaitility.await;

/**
 * One run of a mode: a lock Redis and a fenced resource Redis of its own (loopback, no
 * persistence), three worker JVMs, the fault driver for the run's duration, then the checker
 * over the history.
 */
final class HistoryRun {

	static final int WORKERS = 3;

	private static final Duration STARTUP = Duration.ofSeconds(90);

	private static final Duration SHUTDOWN = Duration.ofSeconds(30);

	private HistoryRun() {
	}

	static String workerId(int index) {
		return "w" + (index + 1);
	}

	static RunResult run(Mode mode, Duration duration) throws InterruptedException {
		Path logs = temporaryDirectory();
		List<Process> workers = new ArrayList<>();
		try (ProcessRedisServer resourceServer = ProcessRedisServer.startDedicated();
				ProcessRedisServer lockServer = ProcessRedisServer.startDedicated();
				FaultyProxy proxy = FaultyProxy.start(lockServer.host(), lockServer.port());
				FencedResource resource = new FencedResource(resourceServer.host(), resourceServer.port())) {
			RedisSentinelTestServer sentinel = mode.sentinel() ? RedisSentinelTestServer.shared() : null;
			String lockHost = mode.throughProxy() ? proxy.host() : lockServer.host();
			if (sentinel != null) {
				sentinel.awaitStable();
				lockHost = HistoryWorker.SENTINEL_PREFIX + sentinel.sentinelNodes();
			}
			int lockPort = mode.throughProxy() ? proxy.port() : lockServer.port();
			for (int i = 0; i < WORKERS; i++) {
				workers.add(startWorker(workerId(i), lockHost, lockPort, resourceServer.port(), mode, logs));
			}
			await().atMost(STARTUP).until(() -> {
				if (workers.stream().anyMatch((worker) -> !worker.isAlive())) {
					throw new IllegalStateException("A worker died while starting; its log is in " + logs);
				}
				return IntStream.range(0, WORKERS).allMatch((i) -> resource.state(workerId(i)) != null);
			});
			FaultDriver driver = new FaultDriver(mode, resource, lockServer, proxy, sentinel, workers);
			try {
				driver.drive(duration);
			}
			finally {
				resource.requestStop();
				driver.thawAll();
			}
			for (Process worker : workers) {
				if (!worker.waitFor(SHUTDOWN.toMillis(), TimeUnit.MILLISECONDS)) {
					worker.destroyForcibly();
				}
			}
			List<Event> history = resource.history();
			CheckReport report = HistoryChecker.check(history);
			return new RunResult(mode, duration, history.size(), report, mode.brokenRules(report), logs);
		}
		finally {
			workers.forEach(Process::destroyForcibly);
		}
	}

	private static Process startWorker(String id, String lockHost, int lockPort, int resourcePort, Mode mode,
			Path logs) {
		String java = ProcessHandle.current().info().command()
			.orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
		List<String> command = List.of(java, "-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
				"-cp", System.getProperty("java.class.path"), HistoryWorker.class.getName(), id, lockHost,
				Integer.toString(lockPort), Integer.toString(resourcePort), Long.toString(Mode.TTL.toMillis()),
				Long.toString(mode.redisTimeout().toMillis()), mode.locked() ? "locked" : "control",
				Long.toString(mode.hold().toMillis()), Long.toString(mode.lockDelay().toMillis()));
		try {
			return new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(logs.resolve(id + ".log").toFile())
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start worker " + id, ex);
		}
	}

	private static Path temporaryDirectory() {
		try {
			return Files.createTempDirectory("lockable-history-");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot create a directory for the workers' logs", ex);
		}
	}

}
