package io.github.lockable.benchmarks;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
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

	private final List<HolderMetadataCost.Memory> memory = new ArrayList<>();

	/** In the order they ran: pairs of rounds, one of each kind. */
	private final List<HolderMetadataCost.Cycles> cycles = new ArrayList<>();

	HolderMetadataReport(int locks, int threads) {
		this.locks = locks;
		this.threads = threads;
	}

	void add(HolderMetadataCost.Memory run) {
		this.memory.add(run);
	}

	void add(HolderMetadataCost.Cycles round) {
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
			.append("divided by the cycles.\n\n");
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
		List<HolderMetadataCost.Memory> none = memory(false);
		List<HolderMetadataCost.Memory> holder = memory(true);
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
			List<HolderMetadataCost.Memory> runs, long usage) {
		out.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %s | %d |%n", name, value, bytes,
				runs.stream()
					.map((run) -> String.format(Locale.ROOT, "%.1f", run.bytesPerLock()))
					.collect(Collectors.joining(", ")),
				usage));
	}

	private void cpuTable(StringBuilder out) {
		out.append("### CPU, acquire and release cycles, ").append(this.threads).append(" threads\n\n");
		out.append("| Request | cycles | cycles/s | Redis CPU us/cycle | JVM CPU us/cycle (whole benchmark JVM) |\n");
		out.append("|---|---:|---:|---:|---:|\n");
		Totals none = totals(false);
		Totals holder = totals(true);
		out.append(none.row("no holder"));
		out.append(holder.row("with holder"));
		out.append(String.format(Locale.ROOT, "| with / without holder | | %.2fx | %.2fx | %.2fx |%n%n",
				holder.perSecond() / none.perSecond(), holder.redisMicros() / none.redisMicros(),
				holder.jvmMicros() / none.jvmMicros()));
		List<String> redisRatios = new ArrayList<>();
		List<String> rateRatios = new ArrayList<>();
		for (int i = 0; i + 1 < this.cycles.size(); i += 2) {
			HolderMetadataCost.Cycles a = this.cycles.get(i);
			HolderMetadataCost.Cycles b = this.cycles.get(i + 1);
			HolderMetadataCost.Cycles with = a.holder() ? a : b;
			HolderMetadataCost.Cycles without = a.holder() ? b : a;
			redisRatios.add(String.format(Locale.ROOT, "%.2f", with.redisMicrosPerCycle() / without.redisMicrosPerCycle()));
			rateRatios.add(String.format(Locale.ROOT, "%.2f", with.perSecond() / without.perSecond()));
		}
		out.append("Per pair of rounds, with / without holder: Redis CPU per cycle ")
			.append(String.join(", ", redisRatios))
			.append("; cycles/s ")
			.append(String.join(", ", rateRatios))
			.append(". Totals over the rounds above; the warm-up rounds before them are left out.\n");
	}

	private List<HolderMetadataCost.Memory> memory(boolean holder) {
		return this.memory.stream().filter((run) -> run.holder() == holder).toList();
	}

	private static double medianBytes(List<HolderMetadataCost.Memory> runs) {
		return runs.isEmpty() ? Double.NaN
				: HolderMetadataCost.median(runs.stream().mapToDouble(HolderMetadataCost.Memory::bytesPerLock).toArray());
	}

	private Totals totals(boolean holder) {
		long count = 0;
		long nanos = 0;
		long redis = 0;
		long jvm = 0;
		for (HolderMetadataCost.Cycles round : this.cycles) {
			if (round.holder() == holder) {
				count += round.cycles();
				nanos += round.nanos();
				redis += round.redisCpuMicros();
				jvm += round.jvmCpuNanos();
			}
		}
		return new Totals(count, nanos, redis, jvm);
	}

	private record Totals(long cycles, long nanos, long redisCpuMicros, long jvmCpuNanos) {

		double perSecond() {
			return this.cycles / (this.nanos / 1e9);
		}

		double redisMicros() {
			return this.redisCpuMicros / (double) this.cycles;
		}

		double jvmMicros() {
			return this.jvmCpuNanos / 1000.0 / this.cycles;
		}

		String row(String name) {
			return String.format(Locale.ROOT, "| %s | %,d | %,.0f | %.2f | %.2f |%n", name, this.cycles, perSecond(),
					redisMicros(), jvmMicros());
		}

	}

}
