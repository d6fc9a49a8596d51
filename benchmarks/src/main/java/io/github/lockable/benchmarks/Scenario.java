package io.github.lockable.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * One scenario of {@link SideBySide}: every contender measured in short interleaved rounds,
 * so that the noise of a shared machine hits all alike, each round's rate divided by the
 * first contender's (raw Lettuce) in the same round.
 * <p>
 * Uncontended: every thread locks a key of its own, and a refused attempt is an error.
 * Contended: every thread try-locks the one key of its contender without waiting, releases
 * it at once when taken, and a {@link CriticalSection} counts overlapping holders.
 */
final class Scenario {

	private final String title;

	private final int threads;

	private final boolean contended;

	private final List<Contender> contenders;

	private final Map<Contender, double[]> rates = new LinkedHashMap<>();

	private final Map<Contender, double[]> ratios = new LinkedHashMap<>();

	private final Map<Contender, double[]> attempts = new LinkedHashMap<>();

	private final Map<Contender, double[]> callerBytes = new LinkedHashMap<>();

	private final Map<Contender, double[]> jvmBytes = new LinkedHashMap<>();

	private final Map<Contender, double[]> cpuMicros = new LinkedHashMap<>();

	private final Map<Contender, double[]> serverCpuMicros = new LinkedHashMap<>();

	private final LongSupplier serverCpu;

	/** How the tables name the first contender, whose rate every ratio divides by, and the server. */
	private final String floor;

	private final String server;

	private final Map<Contender, CriticalSection> sections = new LinkedHashMap<>();

	private int rounds;

	private long roundMillis;

	/** One thread only: the median cycle of each contender, taking turns cycle by cycle. */
	private double[] interleavedNanos;

	Scenario(String title, int threads, boolean contended, List<Contender> contenders, LongSupplier serverCpu) {
		this(title, threads, contended, contenders, serverCpu, "raw Lettuce", "Redis");
	}

	Scenario(String title, int threads, boolean contended, List<Contender> contenders, LongSupplier serverCpu,
			String floor, String server) {
		this.floor = floor;
		this.server = server;
		this.title = title;
		this.serverCpu = serverCpu;
		this.threads = threads;
		this.contended = contended;
		this.contenders = List.copyOf(contenders);
	}

	/**
	 * Warms every contender up, then measures the rounds, rotating the order each round
	 * and reversing it every other round, so that no contender always follows another.
	 */
	Scenario run(int warmups, int rounds, long roundMillis) throws InterruptedException {
		this.rounds = rounds;
		this.roundMillis = roundMillis;
		for (Contender contender : this.contenders) {
			this.rates.put(contender, new double[rounds]);
			this.ratios.put(contender, new double[rounds]);
			this.attempts.put(contender, new double[rounds]);
			this.callerBytes.put(contender, new double[rounds]);
			this.jvmBytes.put(contender, new double[rounds]);
			this.cpuMicros.put(contender, new double[rounds]);
			this.serverCpuMicros.put(contender, new double[rounds]);
			this.sections.put(contender, new CriticalSection());
		}
		for (int i = 0; i < warmups; i++) {
			for (Contender contender : this.contenders) {
				round(contender, roundMillis);
			}
		}
		Contender floor = this.contenders.get(0);
		for (int r = 0; r < rounds; r++) {
			List<Contender> order = new ArrayList<>(this.contenders);
			Collections.rotate(order, r);
			if (r % 2 == 1) {
				Collections.reverse(order);
			}
			for (Contender contender : order) {
				Round round = round(contender, roundMillis);
				this.rates.get(contender)[r] = round.successesPerSecond();
				this.attempts.get(contender)[r] = round.attemptsPerSecond();
				this.callerBytes.get(contender)[r] = round.callerBytesPerAttempt();
				this.jvmBytes.get(contender)[r] = round.jvmBytesPerAttempt();
				this.cpuMicros.get(contender)[r] = round.cpuMicrosPerAttempt();
				this.serverCpuMicros.get(contender)[r] = round.serverCpuMicrosPerAttempt();
			}
			for (Contender contender : this.contenders) {
				this.ratios.get(contender)[r] = this.rates.get(contender)[r] / this.rates.get(floor)[r];
			}
			System.out.printf("%s: round %d of %d done%n", this.title, r + 1, rounds);
		}
		if (this.threads == 1 && !this.contended) {
			List<Contender.Attempt> turns = new ArrayList<>();
			for (Contender contender : this.contenders) {
				turns.add(contender.on("side:turns:" + this.contenders.indexOf(contender), 0));
			}
			try {
				this.interleavedNanos = Interleaved.medianNanos(turns, roundMillis * rounds);
			}
			catch (InterruptedException ex) {
				throw ex;
			}
			catch (Exception ex) {
				throw new IllegalStateException("Taking turns failed: " + ex, ex);
			}
		}
		return this;
	}

	/**
	 * One thread only: the floor's median cycle divided by the contender's, cycles taken
	 * in turns.
	 * @return the ratio, or NaN when not measured
	 */
	double interleavedRatio(Contender contender) {
		if (this.interleavedNanos == null) {
			return Double.NaN;
		}
		return this.interleavedNanos[0] / this.interleavedNanos[this.contenders.indexOf(contender)];
	}

	private Round round(Contender contender, long roundMillis) throws InterruptedException {
		int index = this.contenders.indexOf(contender);
		String scenario = (this.contended ? "c" : "u") + this.threads;
		IntFunction<Contender.Attempt> attempts = (thread) -> {
			String key = this.contended ? "side:" + scenario + ":" + index
					: "side:" + scenario + ":" + index + ":" + thread;
			Contender.Attempt attempt = contender.on(key, thread);
			if (this.contended) {
				return attempt;
			}
			return (section) -> {
				if (!attempt.tryOnce(section)) {
					throw new IllegalStateException(contender.name() + " refused an uncontended lock on " + key);
				}
				return true;
			};
		};
		Runnable section = this.contended ? this.sections.get(contender) : () -> {
		};
		try {
			return Round.measure(this.threads, attempts, section, roundMillis, this.serverCpu);
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(contender.name() + ": " + ex.getMessage(), ex);
		}
	}

	String title() {
		return this.title;
	}

	/**
	 * The median of the rounds' ratios to raw Lettuce.
	 */
	double medianRatio(Contender contender) {
		return percentile(this.ratios.get(contender), 50);
	}

	/**
	 * The best round's rate divided by raw Lettuce's best: a busy machine only ever takes
	 * away, so the best round is the closest to what the library can do.
	 */
	double bestRatio(Contender contender) {
		return percentile(this.rates.get(contender), 100) / percentile(this.rates.get(this.contenders.get(0)), 100);
	}

	long overlaps() {
		return this.sections.values().stream().mapToLong(CriticalSection::overlaps).sum();
	}

	/**
	 * The scenario as a Markdown section.
	 */
	String markdown() {
		StringBuilder out = new StringBuilder();
		out.append("### ").append(this.title).append("\n\n");
		if (this.contended) {
			out.append("| Library | successful acquisitions/s | x " + this.floor + " [p25, p75] | best round/s | x " + this.floor
					+ ", best rounds | attempts/s | overlapping holders |\n");
			out.append("|---|---:|---:|---:|---:|---:|---:|\n");
		}
		else {
			out.append("| Library | lock cycles/s | x " + this.floor + " [p25, p75] | best round/s | x " + this.floor
					+ ", best rounds | JVM CPU us/cycle | " + this.server
					+ " CPU us/cycle | bytes/cycle, calling thread | bytes/cycle, whole JVM |\n");
			out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		}
		for (Contender contender : this.contenders) {
			double[] ratio = this.ratios.get(contender);
			out.append("| ").append(contender.name());
			out.append(" | ").append(format("%,.0f", percentile(this.rates.get(contender), 50)));
			out.append(" | ").append(format("%.2f [%.2f, %.2f]", percentile(ratio, 50), percentile(ratio, 25),
					percentile(ratio, 75)));
			out.append(" | ").append(format("%,.0f", percentile(this.rates.get(contender), 100)));
			out.append(" | ").append(format("%.2f", bestRatio(contender)));
			if (this.contended) {
				out.append(" | ").append(format("%,.0f", percentile(this.attempts.get(contender), 50)));
				out.append(" | ").append(this.sections.get(contender).overlaps());
			}
			else {
				out.append(" | ").append(format("%.1f", percentile(this.cpuMicros.get(contender), 50)));
				out.append(" | ").append(format("%.1f", percentile(this.serverCpuMicros.get(contender), 50)));
				out.append(" | ").append(format("%,.0f", percentile(this.callerBytes.get(contender), 50)));
				out.append(" | ").append(format("%,.0f", percentile(this.jvmBytes.get(contender), 50)));
			}
			out.append(" |\n");
		}
		if (this.interleavedNanos != null) {
			out.append("\nOne thread taking turns, cycle by cycle, between the libraries for ")
				.append(this.rounds * this.roundMillis)
				.append(" ms (median cycle; x " + this.floor + " = its median cycle / the library's):\n\n")
				.append("| Library | median cycle, us | x " + this.floor + " |\n|---|---:|---:|\n");
			for (Contender contender : this.contenders) {
				out.append("| ").append(contender.name()).append(" | ")
					.append(format("%.1f", this.interleavedNanos[this.contenders.indexOf(contender)] / 1000))
					.append(" | ").append(format("%.2f", interleavedRatio(contender))).append(" |\n");
			}
		}
		out.append("\n").append(this.threads).append(this.threads == 1 ? " thread, " : " threads, ")
			.append(this.rounds)
			.append(" rounds; medians over the rounds, ratios taken per round to " + this.floor + " in the same round;"
					+ " best round: the highest rate of the rounds.\n\n");
		return out.toString();
	}

	static double percentile(double[] values, int percentile) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int index = (int) Math.round((percentile / 100.0) * (sorted.length - 1));
		return sorted[index];
	}

	private static String format(String format, Object... args) {
		return String.format(Locale.ROOT, format, args);
	}

}
