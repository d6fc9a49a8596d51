package io.github.lockable.benchmarks.charts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws the charts of docs/performance.md from a {@code SideBySide} results file, so that
 * they are redrawn with the figures: uncontended cycles per second of every contender at
 * each thread count, and the wait handoff's latency. Needs nothing but the JDK; from the
 * repository root:
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.charts.PerformanceCharts
 *     [benchmarks/results/&lt;run&gt;.md] [--out=docs/images]
 * </pre>
 * Without a file it draws the newest {@code SideBySide} results file of benchmarks/results
 * (not the {@code -holder-metadata} and {@code -jdbc-side-by-side} ones). The same file
 * gives the same bytes: {@code PerformanceChartsTests} compares them with the committed ones.
 */
public final class PerformanceCharts {

	static final Path RESULTS = Path.of("benchmarks", "results");

	static final Path OUT = Path.of("docs", "images");

	static final String COMMAND = "./mvnw -q -pl benchmarks -am package -DskipTests && java -cp "
			+ "benchmarks/target/benchmarks.jar io.github.lockable.benchmarks.charts.PerformanceCharts";

	private PerformanceCharts() {
	}

	public static void main(String[] args) throws IOException {
		Path results = null;
		Path out = OUT;
		for (String arg : args) {
			if (arg.startsWith("--out=")) {
				out = Path.of(arg.substring("--out=".length()));
			}
			else if (arg.startsWith("-")) {
				throw new IllegalArgumentException("unknown option " + arg + "; usage: PerformanceCharts "
						+ "[benchmarks/results/<run>.md] [--out=docs/images]");
			}
			else {
				results = Path.of(arg);
			}
		}
		if (results == null) {
			results = ResultsFile.newest(RESULTS);
		}
		for (Path written : write(results, out)) {
			System.out.println("Written to " + written + " from " + results);
		}
	}

	/** Every chart of a results file by its file name, in the order docs/performance.md shows them. */
	static Map<String, String> charts(ResultsFile results) {
		Map<String, String> charts = new LinkedHashMap<>();
		charts.put(ThroughputChart.FILE, new ThroughputChart(results).svg());
		charts.put(HandoffChart.FILE, new HandoffChart(results).svg());
		return charts;
	}

	/** Writes every chart of a results file into a directory; the files written. */
	static List<Path> write(Path results, Path out) throws IOException {
		Files.createDirectories(out);
		List<Path> written = new ArrayList<>();
		for (Map.Entry<String, String> chart : charts(ResultsFile.read(results)).entrySet()) {
			written.add(Files.writeString(out.resolve(chart.getKey()), chart.getValue()));
		}
		return written;
	}

}
