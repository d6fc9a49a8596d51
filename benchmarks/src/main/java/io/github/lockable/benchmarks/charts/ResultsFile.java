package io.github.lockable.benchmarks.charts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A results file of {@code SideBySide} as it reads: its run's time, its machine line and,
 * under each {@code ###} heading, the first Markdown table.
 */
final class ResultsFile {

	/** {@code SideBySide}'s own files; the other benchmarks add a suffix to the time. */
	private static final Pattern SIDE_BY_SIDE = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.md");

	private static final Pattern RATIO = Pattern.compile("([0-9.]+) \\[([0-9.]+), ([0-9.]+)\\]");

	private final String source;

	private final String run;

	private final String machine;

	private final Map<String, Table> tables;

	private ResultsFile(String source, String run, String machine, Map<String, Table> tables) {
		this.source = source;
		this.run = run;
		this.machine = machine;
		this.tables = tables;
	}

	/** The newest {@code SideBySide} results file in a directory. */
	static Path newest(Path directory) throws IOException {
		try (Stream<Path> files = Files.list(directory)) {
			return files.filter((file) -> SIDE_BY_SIDE.matcher(file.getFileName().toString()).matches())
				.max(Path::compareTo)
				.orElseThrow(() -> new IllegalArgumentException("no SideBySide results file in " + directory));
		}
	}

	static ResultsFile read(Path file) throws IOException {
		Path absolute = file.toAbsolutePath().normalize();
		String name = absolute.getFileName().toString();
		boolean inRepository = absolute.getParent().endsWith(Path.of("benchmarks", "results"));
		return parse(inRepository ? "benchmarks/results/" + name : name, Files.readAllLines(file));
	}

	/** @param source how the captions name the file */
	static ResultsFile parse(String source, List<String> lines) {
		String run = null;
		String machine = null;
		Map<String, Table> tables = new LinkedHashMap<>();
		String heading = null;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (line.startsWith("# ") && run == null) {
				run = line.substring(line.lastIndexOf(", ") + 2).strip();
			}
			else if (line.startsWith("Machine: ") && machine == null) {
				machine = line.strip();
			}
			else if (line.startsWith("### ")) {
				heading = line.substring(4).strip();
			}
			else if (line.startsWith("|") && heading != null && !tables.containsKey(heading)) {
				List<String> header = cells(line);
				List<List<String>> rows = new ArrayList<>();
				for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
					rows.add(cells(lines.get(i)));
				}
				tables.put(heading, new Table(heading, header, rows));
			}
		}
		if (run == null || machine == null) {
			throw new IllegalArgumentException(source + " has no '# ..., <time>' title or no 'Machine:' line");
		}
		return new ResultsFile(source, run, machine, tables);
	}

	private static List<String> cells(String line) {
		String inner = line.strip().substring(1);
		if (inner.endsWith("|")) {
			inner = inner.substring(0, inner.length() - 1);
		}
		return Arrays.stream(inner.split("\\|", -1)).map(String::strip).toList();
	}

	/** The file as the captions name it: {@code benchmarks/results/<name>} for the repository's. */
	String source() {
		return this.source;
	}

	/** The run's own time, as its title gives it. */
	String run() {
		return this.run;
	}

	/** The whole {@code Machine:} line. */
	String machine() {
		return this.machine;
	}

	/** The tables whose heading starts with a prefix, in the file's order. */
	List<Table> tables(String headingPrefix) {
		return this.tables.values().stream().filter((table) -> table.heading().startsWith(headingPrefix)).toList();
	}

	/** The table under a heading that starts with a prefix. */
	Table table(String headingPrefix) {
		List<Table> found = tables(headingPrefix);
		if (found.isEmpty()) {
			throw new IllegalArgumentException(this.source + " has no table under a heading '" + headingPrefix + "...'");
		}
		return found.get(0);
	}

	/** A Markdown table: the heading it stands under, its column names and its rows of cells. */
	record Table(String heading, List<String> header, List<List<String>> rows) {

		/** The heading between a prefix and its first parenthesis: "1 thread", "4 threads on one key". */
		String name(String headingPrefix) {
			String rest = this.heading.substring(headingPrefix.length());
			int parenthesis = rest.indexOf(" (");
			return (parenthesis >= 0) ? rest.substring(0, parenthesis) : rest;
		}

		/** The heading's parenthesis without its brackets, or "". */
		String note() {
			int open = this.heading.indexOf(" (");
			return (open >= 0 && this.heading.endsWith(")")) ? this.heading.substring(open + 2, this.heading.length() - 1)
					: "";
		}

		String text(List<String> row, String column) {
			int index = this.header.indexOf(column);
			if (index < 0 || index >= row.size()) {
				throw new IllegalArgumentException("'" + this.heading + "' has no column '" + column + "'");
			}
			return row.get(index);
		}

		/** A number as the file writes it, "17,518" or "0.746". */
		double number(List<String> row, String column) {
			return Double.parseDouble(text(row, column).replace(",", ""));
		}

		/** A ratio with its quartiles, "0.97 [0.92, 1.00]": the median, p25 and p75. */
		double[] ratio(List<String> row, String column) {
			Matcher ratio = RATIO.matcher(text(row, column));
			if (!ratio.matches()) {
				throw new IllegalArgumentException("'" + this.heading + "', " + column + ": not 'median [p25, p75]': "
						+ text(row, column));
			}
			return new double[] { Double.parseDouble(ratio.group(1)), Double.parseDouble(ratio.group(2)),
					Double.parseDouble(ratio.group(3)) };
		}

	}

}
