package io.github.lockable.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.zaxxer.hikari.HikariDataSource;

import io.github.lockable.LockTemplate;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.test.jdbc.JdbcTestDatabases;
import io.github.lockable.test.jdbc.PostgresTestServer;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link SideBySide} on PostgreSQL: Lockable's JDBC store beside ShedLock's JDBC provider
 * and Spring Integration's {@code JdbcLockRegistry}, in alternating short rounds on the same
 * server (the tests' harness, {@link PostgresTestServer}, on a free loopback port) and the
 * same Hikari pool; writes a Markdown results file.
 * <p>
 * Contenders: a hand-written lock of two statements (the floor every ratio is taken to,
 * {@link RawJdbcContender}), Lockable's {@code JdbcLockStore} called directly, the
 * {@code @Lockable} path on it, ShedLock's {@code JdbcTemplateLockProvider} on the
 * database's time, and Spring Integration's {@code JdbcLockRegistry}. Scenarios: uncontended
 * at each thread count, one contended key, and the wait handoff ({@link Handoff}): Lockable
 * waiting as its store waits (whatever {@code awaitRelease} does: a back-off poll today),
 * both within one store and with a store per thread, each thread an instance of its own;
 * Spring Integration polling with its idle sleep; ShedLock, which cannot wait, polled with a
 * fixed sleep.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.JdbcSideBySide [threads...]
 *     [--contended-threads=8] [--rounds=12] [--round-ms=250] [--warmups=2] [--handoff-threads=4]
 *     [--handoffs=300] [--handoff-seconds=6] [--shedlock-poll-ms=100] [--results=benchmarks/results]
 * </pre>
 * Threads default to 1 and 8. With the defaults the run takes about two minutes.
 */
public final class JdbcSideBySide {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final DateTimeFormatter FILE_NAME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'",
			Locale.ROOT);

	private static final String EXCLUDED = "org.springframework.boot.autoconfigure.integration.IntegrationAutoConfiguration,"
			+ "org.springframework.boot.integration.autoconfigure.IntegrationAutoConfiguration";

	private JdbcSideBySide() {
	}

	public static void main(String[] args) throws Exception {
		SideBySideOptions options = SideBySideOptions.parse(args, List.of(1, 8), 8, 12, 300, Duration.ofSeconds(6));
		ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
		String loadBefore = Machine.loadAverage();
		HikariDataSource dataSource = JdbcTestDatabases.postgres("lockable_bench");
		PostgresMachine postgres = new PostgresMachine(dataSource);
		ConfigurableApplicationContext context = new SpringApplicationBuilder(
				LockablePathBenchmark.BenchmarkApplication.class)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.initializers((app) -> app.getBeanFactory().registerSingleton("dataSource", dataSource))
			.properties("logging.level.root=WARN", "lockable.store=jdbc", "lockable.jdbc.initialize-schema=never",
					"lockable.acquire-timeout=2s", "spring.autoconfigure.exclude=" + EXCLUDED)
			.run();
		List<AutoCloseable> all = new ArrayList<>();
		int status = 0;
		try {
			RawJdbcContender raw = new RawJdbcContender(dataSource, TTL);
			Contender store = LockableContenders.store("Lockable JdbcLockStore", context.getBean(JdbcLockStore.class),
					TTL);
			ShedLockJdbcContender shedLock = new ShedLockJdbcContender(dataSource, TTL,
					Duration.ofMillis(options.shedLockPollMillis));
			SpringIntegrationJdbcContender.createTable(dataSource);
			SpringIntegrationJdbcContender integration = add(all, SpringIntegrationJdbcContender.shared(dataSource, TTL));
			List<Contender> contenders = List.of(raw, store,
					LockableContenders.path(context.getBean(LockableContenders.GuardedWork.class)), shedLock,
					integration);
			List<Contender> contended = new ArrayList<>(contenders);
			contended.add(add(all, SpringIntegrationJdbcContender.perThread(dataSource, TTL, options.contendedThreads)));

			List<Scenario> scenarios = new ArrayList<>();
			for (int threads : options.threads) {
				scenarios.add(new Scenario("Uncontended, " + threads + (threads == 1 ? " thread" : " threads")
						+ " (a key per thread)", threads, false, contenders, postgres::cpuMicros, "raw JDBC",
						"PostgreSQL")
					.run(options.warmups, options.rounds, options.roundMillis));
			}
			scenarios.add(new Scenario("One contended key, " + options.contendedThreads
					+ " threads (try-lock without waiting, release at once)", options.contendedThreads, true,
					contended, postgres::cpuMicros, "raw JDBC", "PostgreSQL")
				.run(options.warmups, options.rounds, options.roundMillis));

			List<Handoff.Result> handoffs = handoffs(options, context.getBean(LockTemplate.class), dataSource, shedLock,
					all);
			String report = report(args, options, started, loadBefore, postgres, scenarios, contenders, handoffs);
			System.out.println(report);
			Path file = options.results.resolve(FILE_NAME.format(started) + "-jdbc-side-by-side.md");
			Files.createDirectories(options.results);
			Files.writeString(file, report);
			System.out.println("Written to " + file);
		}
		catch (Exception | Error ex) {
			ex.printStackTrace();
			status = 1;
		}
		finally {
			for (AutoCloseable closeable : all) {
				closeable.close();
			}
			context.close();
			dataSource.close();
			System.exit(status);
		}
	}

	private static <T extends AutoCloseable> T add(List<AutoCloseable> all, T closeable) {
		all.add(closeable);
		return closeable;
	}

	/**
	 * Every waiting lock on one key in turn. Lockable twice: its waiters in one store are
	 * woken by that store's own release, while a store per thread stands for instances that
	 * only learn of a release as the store's {@code awaitRelease} does across instances.
	 */
	private static List<Handoff.Result> handoffs(SideBySideOptions options, LockTemplate template, HikariDataSource dataSource,
			ShedLockJdbcContender shedLock, List<AutoCloseable> all) throws InterruptedException {
		List<String> names = new ArrayList<>();
		List<Handoff.WaitingLock> locks = new ArrayList<>();
		names.add("Lockable (LockTemplate.tryLock with waitTime), one store: waiters woken by its own release");
		locks.add((key, thread, maxWait) -> template.tryLock(key, TTL, maxWait)
			.<Runnable>map((held) -> held::close)
			.orElse(null));
		List<Handoff.WaitingLock> instances = new ArrayList<>();
		for (int t = 0; t < options.handoffThreads; t++) {
			instances.add(Handoff.of(add(all, new JdbcLockStore(dataSource, JdbcLockStore.DEFAULT_TABLE_NAME,
					Duration.ofSeconds(2)))));
		}
		names.add("Lockable, a JdbcLockStore per thread (instances: awaitRelease as the store waits)");
		locks.add((key, thread, maxWait) -> instances.get(thread).tryLock(key, thread, maxWait));
		names.add("Spring Integration JdbcLockRegistry.tryLock(waitTime), a registry per thread (idle sleep 100 ms)");
		locks.add(add(all, SpringIntegrationJdbcContender.perThread(dataSource, TTL, options.handoffThreads)));
		names.add("ShedLock (no wait): lock() polled, sleeping " + shedLock.pollSleep().toMillis() + " ms between tries");
		locks.add(shedLock);
		List<Handoff.Result> results = new ArrayList<>();
		for (int i = 0; i < locks.size(); i++) {
			results.add(Handoff.measure(names.get(i), locks.get(i), options.handoffThreads, options.handoffs,
					options.handoffBound, Duration.ofMillis(1)));
		}
		return results;
	}

	private static String report(String[] args, SideBySideOptions options, ZonedDateTime started, String loadBefore,
			PostgresMachine postgres, List<Scenario> scenarios, List<Contender> contenders,
			List<Handoff.Result> handoffs) {
		StringBuilder out = new StringBuilder();
		out.append("# Lockable's JDBC store side by side with its peers on PostgreSQL, ")
			.append(DateTimeFormatter.ISO_INSTANT.format(started.withNano(0)))
			.append("\n\n");
		out.append("Command (from the repository root, after `./mvnw -o -q -pl benchmarks -am package -DskipTests`):\n\n")
			.append("```\n")
			.append(Machine.command(JdbcSideBySide.class, args))
			.append("\n```\n\n");
		out.append("Machine: ").append(Machine.cores()).append(" cores, ").append(Machine.cpuModel())
			.append("; load average (1, 5, 15 min) ").append(loadBefore).append(" before the run, ")
			.append(Machine.loadAverage()).append(" after it; ").append(postgres.version())
			.append(", the tests' harness (fsync off, synchronous_commit off) on 127.0.0.1, same machine;"
					+ " one Hikari pool (at most 24 connections) for every library.\n\n");
		out.append("```\n").append(Machine.javaVersion()).append("\n```\n\n");
		out.append("Versions: Spring Boot ").append(Machine.version("org.springframework.boot", "spring-boot"))
			.append(", PostgreSQL JDBC ").append(Machine.version("org.postgresql", "postgresql"))
			.append(", HikariCP ").append(Machine.version("com.zaxxer", "HikariCP"))
			.append(", Spring Integration ")
			.append(Machine.version("org.springframework.integration", "spring-integration-jdbc"))
			.append(", ShedLock ")
			.append(Machine.version("net.javacrumbs.shedlock", "shedlock-provider-jdbc-template"))
			.append(". Rounds of ").append(options.roundMillis).append(" ms, ").append(options.warmups)
			.append(" warm-up rounds per contender and scenario.\n\n");
		out.append("How to read it: as the Redis side by side. Every library runs alone in its rounds, in an order"
				+ " that rotates; a ratio is the library's rate over raw JDBC's in the same round (raw JDBC: one"
				+ " INSERT ... ON CONFLICT DO UPDATE ... WHERE expired to acquire, one owner-checked UPDATE to"
				+ " release, each on a pooled connection with auto-commit), and its median over the rounds is the"
				+ " figure. CPU per cycle: the benchmark JVM's, and the PostgreSQL server's processes' (from /proc,"
				+ " in 10 ms ticks) during the round, divided by its cycles.\n\n");
		for (Scenario scenario : scenarios) {
			out.append(scenario.markdown());
		}
		out.append("### Wait handoff, ").append(options.handoffThreads)
			.append(" threads on one key (release to next holder's start; each holder keeps the lock 1 ms; at most ")
			.append(options.handoffs).append(" handoffs or ").append(options.handoffBound.toSeconds())
			.append(" s each)\n\n");
		out.append("| Library | handoffs | median ms | p90 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|\n");
		for (Handoff.Result result : handoffs) {
			out.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f | %.3f |%n", result.name(),
					result.handoffs(), result.median(), result.p90(), result.p99(), result.max()));
			if (result.failure() != null) {
				out.append("\nFAILED: ").append(result.failure()).append("\n\n");
			}
		}
		out.append("\n### Median ratios of this run\n\n");
		for (Scenario scenario : scenarios) {
			List<String> ratios = new ArrayList<>();
			for (Contender contender : contenders.subList(1, contenders.size())) {
				ratios.add(String.format(Locale.ROOT, "%s %.2fx", contender.name(), scenario.medianRatio(contender)));
			}
			out.append("- ").append(scenario.title()).append(", x raw JDBC: ").append(String.join("; ", ratios));
			if (scenario.title().startsWith("One contended")) {
				out.append("; overlapping holders: ").append(scenario.overlaps());
			}
			out.append('\n');
		}
		return out.toString();
	}

}
