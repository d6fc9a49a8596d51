package io.github.lockable.benchmarks;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.github.lockable.test.redis.RedisTestServer;

/**
 * The Markdown report of {@link HolderMetadataCost}: memory per held lock and CPU per lock
 * cycle, without and with a holder, and their ratios.
 */
final class HolderMetadataReport {

	private final int locks;

	private final int threads;

	private final List<Memory> memory = new ArrayList<>();

	/** In the order they ran: pairs of rounds, one of each kind. */
	private final List<Cycles> cycles = new ArrayList<>();

	HolderMetadataReport(int locks, int threads) {
		this.locks = locks;
		this.threads = threads;
	}

	void add(Memory run) {
		this.memory.add(run);
	}

	void add(Cycles round) {
		this.cycles.add(round);
	}

	String markdown(String command, ZonedDateTime started, String loadBefore, RedisTestServer redis) {
		StringBuilder out = new StringBuilder();
		out.append("# Redis holder metadata, cost per lock, ")
			.append(DateTimeFormatter.ISO_INSTANT.format(started.withNano(0)))
			.append("\n\n");
		out.append("Command (from the repository root, after `./mvnw -o -q -pl benchmarks -am package -DskipTests`):\n\n")
			.append("```\n")
			.append(command)
			.append("\n```\n\n");
		out.append("Machine: ").append(Machine.cores()).append(" cores, ").append(Machine.cpuModel())
			.append("; load average (1, 5, 15 min) ").append(loadBefore).append(" before the run, ")
			.append(Machine.loadAverage()).append(" after it; Redis ").append(Machine.redisVersion(redis))
			.append(" on 127.0.0.1, same machine, a server of the benchmark's own without persistence, allocator ")
			.append(this.memory.isEmpty() ? "?" : this.memory.get(0).allocator())
			.append(".\n\n");
		out.append("```\n").append(Machine.javaVersion()).append("\n```\n\n");
		out.append("Versions: Spring Boot ").append(Machine.version("org.springframework.boot", "spring-boot"))
			.append(", Lettuce ").append(Machine.version("io.lettuce", "lettuce-core")).append(".\n\n");
		out.append("How to read it: the same `RedisLockStore` acquires with `new LockRequest(key, ttl, false, null)` ")
			.append("(the value at the key is the 36-character token) and with a holder ")
			.append("`LockHolder(\"").append(HolderMetadataCost.HOLDER.instance()).append("\", ")
			.append(HolderMetadataCost.HOLDER.pid()).append(", \"").append(HolderMetadataCost.HOLDER.method())
			.append("\")` (the value is `<token> <acquiredAtMillis> <instance>\\t<pid>\\t<method>`). ")
			.append("Memory: growth of `used_memory` (`INFO memory`) while ")
			.append(String.format(Locale.ROOT, "%,d", this.locks))
			.append(" locks are held on an emptied server, per lock, so it includes the key, the expiry and the ")
			.append("dictionaries' share; `MEMORY USAGE` is one key's own estimate. CPU: `used_cpu_sys + used_cpu_user` ")
			.append("(`INFO cpu`) of the server and the benchmark JVM's process CPU time over acquire and release cycles ")
			.append("from ").append(this.threads).append(" threads, a key per thread, in alternating rounds (ABBA), ")
			.append("divided by the cycles; and the server's time in the store's commands (`INFO commandstats` ")
			.append("usec of SET and EVALSHA, the release script with the commands it calls). The server's CPU ")
			.append("includes reading requests and writing replies, whose cost per command falls as more commands ")
			.append("arrive per read (the store pipelines the threads' commands on one connection), so it moves with ")
			.append("the machine's scheduling from round to round; the command time shows what the longer value itself costs the server.\n\n");
		memoryTable(out);
		cpuTable(out);
		return out.toString();
	}

	private void memoryTable(StringBuilder out) {
		out.append("### Memory, ").append(String.format(Locale.ROOT, "%,d", this.locks))
			.append(" held locks (TTL 10 min)\n\n");
		out.append("| Value at the lock key | value bytes | used_memory growth, bytes/lock (median) | runs | ")
			.append("MEMORY USAGE of one key, bytes |\n");
		out.append("|---|---:|---:|---|---:|\n");
		List<Memory> none = memory(false);
		List<Memory> holder = memory(true);
		double noneBytes = medianBytes(none);
		double holderBytes = medianBytes(holder);
		long noneValue = none.isEmpty() ? 0 : none.get(0).valueBytes();
		long holderValue = holder.isEmpty() ? 0 : holder.get(0).valueBytes();
		long noneUsage = none.isEmpty() ? 0 : none.get(0).keyUsage();
		long holderUsage = holder.isEmpty() ? 0 : holder.get(0).keyUsage();
		memoryRow(out, "token only (no holder)", noneValue, noneBytes, none, noneUsage);
		memoryRow(out, "token, acquire time and holder", holderValue, holderBytes, holder, holderUsage);
		out.append(String.format(Locale.ROOT, "| added by the holder | +%d | +%.1f | | +%d |%n", holderValue - noneValue,
				holderBytes - noneBytes, holderUsage - noneUsage));
		out.append(String.format(Locale.ROOT, "| holder / no holder | %.2fx | %.2fx | | %.2fx |%n%n",
				holderValue / (double) noneValue, holderBytes / noneBytes, holderUsage / (double) noneUsage));
	}

	private static void memoryRow(StringBuilder out, String name, long value, double bytes,
			List<Memory> runs, long usage) {
		out.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %s | %d |%n", name, value, bytes,
				runs.stream()
					.map((run) -> String.format(Locale.ROOT, "%.1f", run.bytesPerLock()))
					.collect(Collectors.joining(", ")),
				usage));
	}

	private void cpuTable(StringBuilder out) {
		out.append("### CPU, acquire and release cycles, ").append(this.threads).append(" threads\n\n");
		out.append("| Request | cycles | cycles/s | Redis CPU us/cycle | Redis time in SET + EVALSHA us/cycle | ")
			.append("JVM CPU us/cycle (whole benchmark JVM) |\n");
		out.append("|---|---:|---:|---:|---:|---:|\n");
		Totals none = totals(false);
		Totals holder = totals(true);
		out.append(none.row("no holder"));
		out.append(holder.row("with holder"));
		out.append(String.format(Locale.ROOT, "| with / without holder | | %.2fx | %.2fx | %.2fx | %.2fx |%n%n",
				holder.perSecond() / none.perSecond(), holder.redisMicros() / none.redisMicros(),
				holder.commandMicrosPerCycle() / none.commandMicrosPerCycle(), holder.jvmMicros() / none.jvmMicros()));
		int pairs = this.cycles.size() / 2;
		double[] redis = new double[pairs];
		double[] command = new double[pairs];
		double[] rate = new double[pairs];
		for (int i = 0; i < pairs; i++) {
			Cycles a = this.cycles.get(2 * i);
			Cycles b = this.cycles.get(2 * i + 1);
			Cycles with = a.holder() ? a : b;
			Cycles without = a.holder() ? b : a;
			redis[i] = with.redisMicrosPerCycle() / without.redisMicrosPerCycle();
			command[i] = with.commandMicrosPerCycle() / without.commandMicrosPerCycle();
			rate[i] = with.perSecond() / without.perSecond();
		}
		out.append(String.format(Locale.ROOT,
				"Median of the %d pairs of rounds, with / without holder: cycles/s %.2fx, Redis CPU %.2fx, "
						+ "SET + EVALSHA time %.2fx.%n%n",
				pairs, median(rate), median(redis), median(command)));
		out.append("Per pair of rounds, with / without holder: Redis CPU per cycle ")
			.append(ratios(redis))
			.append("; in SET + EVALSHA ")
			.append(ratios(command))
			.append("; cycles/s ")
			.append(ratios(rate))
			.append(". Totals over the rounds above; the warm-up rounds before them are left out.\n");
	}

	private static String ratios(double[] ratios) {
		return Arrays.stream(ratios)
			.mapToObj((ratio) -> String.format(Locale.ROOT, "%.2f", ratio))
			.collect(Collectors.joining(", "));
	}

	private List<Memory> memory(boolean holder) {
		return this.memory.stream().filter((run) -> run.holder() == holder).toList();
	}

	private static double medianBytes(List<Memory> runs) {
		return runs.isEmpty() ? Double.NaN
				: median(runs.stream().mapToDouble(Memory::bytesPerLock).toArray());
	}

	private Totals totals(boolean holder) {
		long count = 0;
		long nanos = 0;
		long redis = 0;
		long command = 0;
		long jvm = 0;
		for (Cycles round : this.cycles) {
			if (round.holder() == holder) {
				count += round.cycles();
				nanos += round.nanos();
				redis += round.redisCpuMicros();
				command += round.commandMicros();
				jvm += round.jvmCpuNanos();
			}
		}
		return new Totals(count, nanos, redis, command, jvm);
	}

	private record Totals(long cycles, long nanos, long redisCpuMicros, long commandMicros, long jvmCpuNanos) {

		double perSecond() {
			return this.cycles / (this.nanos / 1e9);
		}

		double redisMicros() {
			return this.redisCpuMicros / (double) this.cycles;
		}

		double commandMicrosPerCycle() {
			return this.commandMicros / (double) this.cycles;
		}

		double jvmMicros() {
			return this.jvmCpuNanos / 1000.0 / this.cycles;
		}

		String row(String name) {
			return String.format(Locale.ROOT, "| %s | %,d | %,.0f | %.2f | %.2f | %.2f |%n", name, this.cycles,
					perSecond(), redisMicros(), commandMicrosPerCycle(), jvmMicros());
		}

	}

	static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	/**
	 * One memory run.
	 * @param holder whether the locks named a holder
	 * @param locks how many locks were held
	 * @param bytesPerLock growth of {@code used_memory} per lock
	 * @param keyUsage {@code MEMORY USAGE} of one lock key
	 * @param valueBytes the length of one lock key's value
	 * @param allocator the server's allocator
	 */
	record Memory(boolean holder, int locks, double bytesPerLock, long keyUsage, long valueBytes, String allocator) {

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "memory %-6s %,d locks: %.1f bytes/lock, MEMORY USAGE %d, value %d bytes",
					this.holder ? "holder" : "none", this.locks, this.bytesPerLock, this.keyUsage, this.valueBytes);
		}

	}

	/**
	 * One CPU round.
	 * @param holder whether the locks named a holder
	 * @param cycles how many acquire and release cycles ran
	 * @param nanos how long they took
	 * @param redisCpuMicros the server's CPU time during the round
	 * @param commandMicros the server's time in the store's commands during the round
	 * @param jvmCpuNanos the benchmark JVM's CPU time during the round
	 */
	record Cycles(boolean holder, int cycles, long nanos, long redisCpuMicros, long commandMicros,
			long jvmCpuNanos) {

		double perSecond() {
			return this.cycles / (this.nanos / 1e9);
		}

		double redisMicrosPerCycle() {
			return this.redisCpuMicros / (double) this.cycles;
		}

		double commandMicrosPerCycle() {
			return this.commandMicros / (double) this.cycles;
		}

		double jvmMicrosPerCycle() {
			return this.jvmCpuNanos / 1000.0 / this.cycles;
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT,
					"cycles %-6s %,d: %,.0f/s, Redis CPU %.2f us/cycle, in commands %.2f us/cycle, JVM CPU %.2f us/cycle",
					this.holder ? "holder" : "none", this.cycles, perSecond(), redisMicrosPerCycle(),
					commandMicrosPerCycle(), jvmMicrosPerCycle());
		}

	}

}
