package io.github.lockable.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.lettuce.core.ClientOptions;

import io.github.lockable.LockTemplate;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Lockable and the libraries users would pick instead, measured in alternating short rounds
 * against the same Redis server, so that the noise of a shared machine hits all alike;
 * writes a Markdown results file. JMH runs one benchmark after the other, and on a busy
 * machine the drift between them can be larger than the difference being measured.
 * <p>
 * Contenders, each through its documented API: raw Lettuce sending a plain
 * {@code SET NX PX} and the store's release script (the floor every ratio is taken to), Lockable's Redis store, the {@code @Lockable} path (a
 * proxied method with a named resolver), Redisson's {@code RLock}, Spring Integration's
 * {@code RedisLockRegistry} and ShedLock's {@code RedisLockProvider}. Scenarios:
 * uncontended at each thread count (a key per thread; lock cycles per second and bytes
 * allocated per cycle), one contended key (successful acquisitions per second), and the
 * wait handoff ({@link Handoff}) of the libraries that can wait.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.SideBySide [threads...]
 *     [--contended-threads=16] [--rounds=24] [--round-ms=250] [--warmups=2]
 *     [--handoff-threads=4] [--handoffs=500] [--handoff-seconds=8] [--results=benchmarks/results]
 * </pre>
 * Threads default to 1 and 16. With the defaults the run takes about three minutes.
 */
public final class SideBySide {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final DateTimeFormatter FILE_NAME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'",
			Locale.ROOT);

	/** Spring Integration on the class path must not add its own beans to the measured application. */
	private static final String EXCLUDED = "org.springframework.boot.autoconfigure.integration.IntegrationAutoConfiguration,"
			+ "org.springframework.boot.integration.autoconfigure.IntegrationAutoConfiguration";

	private SideBySide() {
	}

	public static void main(String[] args) throws Exception {
		SideBySideOptions options = SideBySideOptions.parse(args, List.of(1, 16), 16, 24, 500, Duration.ofSeconds(8));
		ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
		String loadBefore = Machine.loadAverage();
		RedisTestServer redis = RedisTestServer.shared();
		ConfigurableApplicationContext context = new SpringApplicationBuilder(
				LockablePathBenchmark.BenchmarkApplication.class)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"logging.level.root=WARN", "lockable.store=redis", "lockable.acquire-timeout=2s",
					"spring.autoconfigure.exclude=" + EXCLUDED)
			.run();
		List<Contender> all = new ArrayList<>();
		int status = 0;
		try {
			LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
			Contender store = LockableContenders.store(context.getBean(RedisLockStore.class), TTL);
			RawLettuceContender.verifyScripts(redis.commands(), () -> {
				try {
					store.on("side:verify-scripts", 0).tryOnce(() -> {
					});
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			ClientOptions bootOptions = factory.getClientConfiguration()
				.getClientOptions()
				.orElseThrow(() -> new IllegalStateException("Spring Boot's factory has no client options"));
			RawLettuceContender raw = add(all, new RawLettuceContender(redis.url(), bootOptions, TTL,
					"raw Lettuce (floor), Spring Boot's client options"));
			RawLettuceContender bare = add(all,
					new RawLettuceContender(redis.url(), null, TTL, "raw Lettuce, Lettuce's default client options"));
			RedissonContender redisson = new RedissonContender(redis.url(), TTL);
			SpringIntegrationContender integration = SpringIntegrationContender.shared(factory, TTL);
			List<Contender> contenders = List.of(raw, store,
					LockableContenders.path(context.getBean(LockableContenders.GuardedWork.class)),
					add(all, redisson), add(all, integration), new ShedLockContender(factory, TTL));
			List<Contender> uncontended = new ArrayList<>(contenders);
			uncontended.add(bare);
			List<Contender> contended = new ArrayList<>(contenders);
			contended.add(add(all, SpringIntegrationContender.perThread(factory, TTL, options.contendedThreads,
					RedisLockType.SPIN_LOCK)));

			List<Scenario> scenarios = new ArrayList<>();
			for (int threads : options.threads) {
				scenarios.add(new Scenario("Uncontended, " + threads + (threads == 1 ? " thread" : " threads")
						+ " (a key per thread)", threads, false, uncontended, () -> Machine.redisCpuMicros(redis))
					.run(options.warmups, options.rounds, options.roundMillis));
			}
			Scenario contention = new Scenario("One contended key, " + options.contendedThreads
					+ " threads (try-lock without waiting, release at once)", options.contendedThreads, true,
					contended, () -> Machine.redisCpuMicros(redis))
				.run(options.warmups, options.rounds, options.roundMillis);
			scenarios.add(contention);

			LockTemplate template = context.getBean(LockTemplate.class);
			List<Handoff.WaitingLock> waiting = new ArrayList<>();
			List<String> waitingNames = new ArrayList<>();
			waitingNames.add("Lockable (LockTemplate.tryLock with waitTime)");
			waiting.add((key, thread, maxWait) -> template.tryLock(key, TTL, maxWait)
				.<Runnable>map((held) -> held::close)
				.orElse(null));
			waitingNames.add("Redisson RLock.tryLock(waitTime, leaseTime)");
			waiting.add(redisson);
			for (RedisLockType type : RedisLockType.values()) {
				waitingNames.add("Spring Integration tryLock(waitTime), a registry per thread, " + type.name());
				waiting.add(add(all, SpringIntegrationContender.perThread(factory, TTL, options.handoffThreads, type)));
			}
			List<Handoff.Result> handoffs = new ArrayList<>();
			for (int i = 0; i < waiting.size(); i++) {
				handoffs.add(Handoff.measure(waitingNames.get(i), waiting.get(i), options.handoffThreads,
						options.handoffs, options.handoffBound, Duration.ofMillis(1)));
			}

			String report = report(args, options, started, loadBefore, redis, scenarios, contenders, handoffs);
			System.out.println(report);
			Path file = options.results.resolve(FILE_NAME.format(started) + ".md");
			Files.createDirectories(options.results);
			Files.writeString(file, report);
			System.out.println("Written to " + file);
		}
		catch (Exception | Error ex) {
			// The exit below would otherwise end the run without a word about why.
			ex.printStackTrace();
			status = 1;
		}
		finally {
			for (Contender contender : all) {
				contender.close();
			}
			context.close();
			System.exit(status);
		}
	}

	private static <T extends Contender> T add(List<Contender> all, T contender) {
		all.add(contender);
		return contender;
	}

	private static String report(String[] args, SideBySideOptions options, ZonedDateTime started, String loadBefore,
			RedisTestServer redis, List<Scenario> scenarios, List<Contender> contenders, List<Handoff.Result> handoffs)
			throws IOException {
		StringBuilder out = new StringBuilder();
		out.append("# Lockable side by side with its peers, ")
			.append(DateTimeFormatter.ISO_INSTANT.format(started.withNano(0)))
			.append("\n\n");
		out.append("Command (from the repository root, after `./mvnw -o -q -pl benchmarks -am install -DskipTests`):\n\n")
			.append("```\n")
			.append(Machine.command(SideBySide.class, args))
			.append("\n```\n\n");
		out.append("Machine: ").append(Machine.cores()).append(" cores, ").append(Machine.cpuModel())
			.append("; load average (1, 5, 15 min) ").append(loadBefore).append(" before the run, ")
			.append(Machine.loadAverage()).append(" after it; Redis ").append(Machine.redisVersion(redis))
			.append(" on 127.0.0.1, same machine.\n\n");
		out.append("```\n").append(Machine.javaVersion()).append("\n```\n\n");
		out.append("Versions: Spring Boot ").append(Machine.version("org.springframework.boot", "spring-boot"))
			.append(", Lettuce ").append(Machine.version("io.lettuce", "lettuce-core"))
			.append(", Redisson ").append(Machine.version("org.redisson", "redisson"))
			.append(", Spring Integration ")
			.append(Machine.version("org.springframework.integration", "spring-integration-redis"))
			.append(", ShedLock ").append(Machine.version("net.javacrumbs.shedlock", "shedlock-provider-redis-spring"))
			.append(". Rounds of ").append(options.roundMillis).append(" ms, ").append(options.warmups)
			.append(" warm-up rounds per contender and scenario.\n\n");
		out.append("How to read it: every library runs alone in its rounds, in an order that rotates;"
				+ " a ratio is the library's rate over raw Lettuce's in the same round, and its median over the"
				+ " rounds is what the targets use. A busy machine starves whole rounds, so the best round of each"
				+ " is shown too, and with one thread the libraries also take turns cycle by cycle, which a busy"
				+ " machine disturbs the least. CPU per cycle is the whole benchmark JVM's (callers, client I/O"
				+ " threads, GC, JIT) and the Redis server's (INFO cpu) during the round, divided by its cycles:"
				+ " at low rates their background work dominates it. Bytes per cycle: allocated by the calling"
				+ " threads, and by every thread of the JVM.\n\n");
		for (Scenario scenario : scenarios) {
			out.append(scenario.markdown());
		}
		out.append("### Wait handoff, ").append(options.handoffThreads)
			.append(" threads on one key (release to next holder's start; each holder keeps the lock 1 ms)\n\n");
		out.append("| Library | handoffs | median ms | p90 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|\n");
		for (Handoff.Result result : handoffs) {
			out.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f | %.3f |%n", result.name(),
					result.handoffs(), result.median(), result.p90(), result.p99(), result.max()));
			if (result.failure() != null) {
				out.append("\nFAILED: ").append(result.failure()).append("\n\n");
			}
		}
		out.append("\n").append(targets(scenarios, contenders));
		return out.toString();
	}

	/**
	 * The targets, checked on this run's median ratios.
	 */
	private static String targets(List<Scenario> scenarios, List<Contender> contenders) {
		Contender path = contenders.get(2);
		StringBuilder out = new StringBuilder("### Targets (median ratios of this run)\n\n");
		for (Scenario scenario : scenarios) {
			double ratio = scenario.medianRatio(path);
			if (scenario.title().startsWith("Uncontended")) {
				out.append(String.format(Locale.ROOT,
						"- %s: @Lockable path %.2fx raw Lettuce (best rounds %.2fx), target >= 0.90: %s%n",
						scenario.title(), ratio, scenario.bestRatio(path), (ratio >= 0.9) ? "met" : "MISSED"));
				double turns = scenario.interleavedRatio(path);
				if (!Double.isNaN(turns)) {
					out.append(String.format(Locale.ROOT,
							"  - taking turns cycle by cycle: @Lockable path %.2fx raw Lettuce, target >= 0.90: %s%n",
							turns, (turns >= 0.9) ? "met" : "MISSED"));
				}
				List<String> peers = new ArrayList<>();
				for (Contender peer : contenders.subList(3, contenders.size())) {
					double peerRatio = scenario.medianRatio(peer);
					peers.add(String.format(Locale.ROOT, "%s %.2fx, best rounds %.2fx (%s)", peer.name(), peerRatio,
							scenario.bestRatio(peer), (ratio > peerRatio) ? "@Lockable ahead" : "@Lockable BEHIND"));
				}
				out.append("  - peers: ").append(String.join("; ", peers)).append('\n');
			}
			else {
				out.append(String.format(Locale.ROOT,
						"- %s: @Lockable path successes %.2fx raw Lettuce (best rounds %.2fx), target >= 1.00: %s;"
								+ " overlapping holders: %d%n",
						scenario.title(), ratio, scenario.bestRatio(path), (ratio >= 1.0) ? "met" : "MISSED",
						scenario.overlaps()));
			}
		}
		return out.toString();
	}

}
