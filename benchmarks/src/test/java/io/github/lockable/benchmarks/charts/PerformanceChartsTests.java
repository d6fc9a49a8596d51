package io.github.lockable.benchmarks.charts;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

/**
 * The charts of docs/performance.md are the ones the newest results file draws, and what
 * they draw follows the figures of the file.
 */
class PerformanceChartsTests {

	/** Two thread counts and a handoff, figures chosen so that the positions are round numbers. */
	private static final String FIXTURE = """
			# Lockable side by side with its peers, 2026-01-02T03:04:05Z

			Machine: 4 cores, Test CPU; load average (1, 5, 15 min) 1.00 1.00 1.00 before the run.

			### Uncontended, 1 thread (a key per thread)

			| Library | lock cycles/s | x raw Lettuce [p25, p75] | best round/s |
			|---|---:|---:|---:|
			| raw Lettuce (floor), Spring Boot's client options | 2,000 | 1.00 [1.00, 1.00] | 9,999 |
			| Lockable store | 3,000 | 1.50 [1.20, 1.80] | 9,999 |

			One thread taking turns, cycle by cycle:

			| Library | median cycle, us | x raw Lettuce |
			|---|---:|---:|
			| Lockable store | 1.0 | 9.99 |

			### Uncontended, 4 threads (a key per thread)

			| Library | lock cycles/s | x raw Lettuce [p25, p75] | best round/s |
			|---|---:|---:|---:|
			| raw Lettuce (floor), Spring Boot's client options | 12,000 | 1.00 [1.00, 1.00] | 9,999 |
			| Lockable store | 6,000 | 0.50 [0.25, 0.75] | 9,999 |

			### Wait handoff, 2 threads on one key (release to next holder's start)

			| Library | handoffs | median ms | p90 ms | p99 ms | max ms |
			|---|---:|---:|---:|---:|---:|
			| Lockable (LockTemplate.tryLock with waitTime) | 1,200 | 1.000 | 10.000 | 100.000 | 1000.000 |
			| Redisson RLock.tryLock(waitTime, leaseTime) | 30 | 2.000 | 3.000 | 4.000 | 5.000 |
			""";

	private static final Path ROOT = root();

	@Test
	void committedChartsAreWhatTheNewestResultsFileDraws(@TempDir Path out) throws IOException {
		Path results = ResultsFile.newest(ROOT.resolve(PerformanceCharts.RESULTS));
		List<Path> drawn = PerformanceCharts.write(results, out);
		assertThat(drawn).hasSize(2);
		for (Path chart : drawn) {
			Path committed = ROOT.resolve(PerformanceCharts.OUT).resolve(chart.getFileName());
			assertThat(Files.exists(committed) ? Files.mismatch(chart, committed) : 0L)
				.as("%s is not what %s draws; redraw the charts from the repository root with%n  %s",
						PerformanceCharts.OUT.resolve(chart.getFileName()), ROOT.relativize(results),
						PerformanceCharts.COMMAND)
				.isEqualTo(-1L);
		}
	}

	@Test
	void performancePageShowsTheChartsAndNamesTheirRun() throws IOException {
		String page = Files.readString(ROOT.resolve("docs/performance.md"));
		Path results = ResultsFile.newest(ROOT.resolve(PerformanceCharts.RESULTS));
		for (String expected : List.of("](images/" + ThroughputChart.FILE + ")", "](images/" + HandoffChart.FILE + ")",
				"`benchmarks/results/" + results.getFileName() + "`")) {
			assertThat(page.contains(expected)).as("docs/performance.md contains %s", expected).isTrue();
		}
	}

	@Test
	void newestResultsFileIsSideBySidesNotAnotherBenchmarks(@TempDir Path results) throws IOException {
		for (String name : List.of("2026-01-01T00-00-00Z.md", "2026-01-02T00-00-00Z.md",
				"2026-01-03T00-00-00Z-holder-metadata.md", "2026-01-04T00-00-00Z-jdbc-side-by-side.md")) {
			Files.writeString(results.resolve(name), "");
		}
		assertThat(ResultsFile.newest(results).getFileName()).hasToString("2026-01-02T00-00-00Z.md");
	}

	@Test
	void barsFollowTheTablesFigures() {
		ThroughputChart chart = new ThroughputChart(fixture());
		assertThat(chart.bars()).extracting(ThroughputChart.Bar::library, ThroughputChart.Bar::threads,
				ThroughputChart.Bar::cyclesPerSecond, ThroughputChart.Bar::ratio, ThroughputChart.Bar::p25,
				ThroughputChart.Bar::p75)
			.containsExactly(
					tuple("raw Lettuce (floor), Spring Boot's client options", "1 thread",
							2000.0, 1.0, 1.0, 1.0),
					tuple("raw Lettuce (floor), Spring Boot's client options",
							"4 threads", 12000.0, 1.0, 1.0, 1.0),
					tuple("Lockable store", "1 thread", 3000.0, 1.5, 1.2, 1.8),
					tuple("Lockable store", "4 threads", 6000.0, 0.5, 0.25, 0.75));
		String svg = chart.svg();
		// The axis ends at 2.00, the next quarter above the highest p75 (1.80), and is 400 px wide.
		assertThat(barWidth(svg, "Lockable store, 1 thread")).isEqualTo(300.0);
		assertThat(barWidth(svg, "Lockable store, 4 threads")).isEqualTo(100.0);
		assertThat(barWidth(svg, "raw Lettuce (floor), Spring Boot's client options, 4 threads")).isEqualTo(200.0);
		assertThat(svg).contains(">1.50x · 3,000/s</text>", ">0.50x · 6,000/s</text>", ">2.00</text>",
				">1 thread</text>", ">4 threads</text>", "<title id=\"title\">Uncontended lock cycles per second, "
						+ "x raw Lettuce, run 2026-01-02T03:04:05Z</title>",
				"Lockable store: 1 thread 1.50x [1.20, 1.80], 3,000 cycles/s; 4 threads 0.50x [0.25, 0.75], "
						+ "6,000 cycles/s.",
				">Source: fixture.md (run 2026-01-02T03:04:05Z), drawn by PerformanceCharts.</text>",
				">Machine: 4 cores, Test CPU; load average (1, 5, 15 min) 1.00 1.00 1.00 before the run.</text>")
			.doesNotContain("9,999", "9.99");
		// Whiskers from p25 to p75: 1.20 to 1.80 of 2.00 on the 1-thread bar
		assertThat(svg).contains("<line x1=\"590.0\" y1=\"143.0\" x2=\"710.0\" y2=\"143.0\"");
	}

	@Test
	void handoffDotsLieOnALogScaleOfTheTablesFigures() {
		HandoffChart chart = new HandoffChart(fixture());
		assertThat(chart.rows()).extracting(HandoffChart.Row::library, HandoffChart.Row::handoffs)
			.containsExactly(tuple("Lockable (LockTemplate.tryLock with waitTime)", 1200L),
					tuple("Redisson RLock.tryLock(waitTime, leaseTime)", 30L));
		assertThat(chart.rows().get(1).millis()).containsExactly(2.0, 3.0, 4.0, 5.0);
		String svg = chart.svg();
		// 1 to 1,000 ms: three decades over 520 px from x = 340
		assertThat(chart.x(1)).isEqualTo(340.0);
		assertThat(chart.x(10)).isCloseTo(340 + 520 / 3.0, within(1e-9));
		assertThat(chart.x(1000)).isEqualTo(860.0);
		assertThat(svg).contains("<circle cx=\"340.0\" cy=\"104.0\" r=\"5\"", ">1,000</text>", ">1</text>",
				"<title>Lockable (LockTemplate.tryLock with waitTime), max 1000.000 ms</title>",
				">1,200 handoffs: median 1.000, p90 10.000, p99 100.000, max 1000.000 ms</text>",
				">30 handoffs: median 2.000, p90 3.000, p99 4.000, max 5.000 ms</text>",
				">2 threads on one key: release to next holder's start</text>", ">Lockable</text>",
				">(LockTemplate.tryLock with waitTime)</text>", ">Redisson RLock.tryLock(waitTime, leaseTime)</text>");
		// max at 1,000 ms: the triangle's apex at x = 860
		assertThat(svg).contains("<path d=\"M860.0 98.0l6 10h-12z\"");
	}

	@Test
	void axisTicksAreOneTwoFiveFromBelowTheLeastToAboveTheMost() {
		assertThat(HandoffChart.ticks(0.736, 226.4)).extracting(BigDecimal::toPlainString)
			.containsExactly("0.5", "1", "2", "5", "10", "20", "50", "100", "200", "500");
		assertThat(HandoffChart.ticks(3, 3)).extracting(BigDecimal::doubleValue).containsExactly(2.0, 5.0);
	}

	@Test
	void numbersAreWrittenAlikeInEveryLocale() {
		Map<String, String> charts = PerformanceCharts.charts(fixture());
		Locale before = Locale.getDefault();
		try {
			Locale.setDefault(Locale.GERMANY);
			assertThat(PerformanceCharts.charts(fixture())).isEqualTo(charts);
		}
		finally {
			Locale.setDefault(before);
		}
	}

	private static ResultsFile fixture() {
		return ResultsFile.parse("fixture.md", FIXTURE.lines().toList());
	}

	private static double barWidth(String svg, String title) {
		Matcher bar = Pattern.compile("<rect x=\"350.0\" y=\"[0-9.]+\" width=\"([0-9.]+)\" height=\"16.0\" fill=\"#[0-9a-f]+\">"
				+ "<title>" + Pattern.quote(Svg.escape(title)) + " ").matcher(svg);
		assertThat(bar.find()).as("a bar titled '%s'", title).isTrue();
		return Double.parseDouble(bar.group(1));
	}

	private static Path root() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isDirectory(dir.resolve(PerformanceCharts.RESULTS)) && Files.isDirectory(dir.resolve("docs"))) {
				return dir;
			}
		}
		throw new IllegalStateException("benchmarks/results and docs/ not found above " + Path.of("").toAbsolutePath());
	}

}
