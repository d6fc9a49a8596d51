package io.github.lockable.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@link SideBySide} and {@link JdbcSideBySide}: thread counts as bare
 * numbers, everything else as {@code --name=value}; each main gives its own defaults.
 */
final class SideBySideOptions {

	List<Integer> threads = new ArrayList<>();

	int contendedThreads;

	int rounds;

	long roundMillis = 250;

	int warmups = 2;

	int handoffThreads = 4;

	int handoffs;

	Duration handoffBound;

	/** How long ShedLock, which cannot wait, sleeps between tries in the JDBC handoff. */
	long shedLockPollMillis = 100;

	Path results = Path.of("benchmarks", "results");

	private SideBySideOptions(int contendedThreads, int rounds, int handoffs, Duration handoffBound) {
		this.contendedThreads = contendedThreads;
		this.rounds = rounds;
		this.handoffs = handoffs;
		this.handoffBound = handoffBound;
	}

	static SideBySideOptions parse(String[] args, List<Integer> defaultThreads, int contendedThreads, int rounds,
			int handoffs, Duration handoffBound) {
		SideBySideOptions options = new SideBySideOptions(contendedThreads, rounds, handoffs, handoffBound);
		for (String arg : args) {
			String value = arg.substring(arg.indexOf('=') + 1);
			if (arg.startsWith("--contended-threads=")) {
				options.contendedThreads = Integer.parseInt(value);
			}
			else if (arg.startsWith("--rounds=")) {
				options.rounds = Integer.parseInt(value);
			}
			else if (arg.startsWith("--round-ms=")) {
				options.roundMillis = Long.parseLong(value);
			}
			else if (arg.startsWith("--warmups=")) {
				options.warmups = Integer.parseInt(value);
			}
			else if (arg.startsWith("--handoff-threads=")) {
				options.handoffThreads = Integer.parseInt(value);
			}
			else if (arg.startsWith("--handoffs=")) {
				options.handoffs = Integer.parseInt(value);
			}
			else if (arg.startsWith("--handoff-seconds=")) {
				options.handoffBound = Duration.ofSeconds(Long.parseLong(value));
			}
			else if (arg.startsWith("--shedlock-poll-ms=")) {
				options.shedLockPollMillis = Long.parseLong(value);
			}
			else if (arg.startsWith("--results=")) {
				options.results = Path.of(value);
			}
			else {
				options.threads.add(Integer.parseInt(arg));
			}
		}
		if (options.threads.isEmpty()) {
			options.threads = defaultThreads;
		}
		return options;
	}

}
