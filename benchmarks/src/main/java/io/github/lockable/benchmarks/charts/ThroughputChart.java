package io.github.lockable.benchmarks.charts;

import java.util.ArrayList;
import java.util.List;

/**
 * Uncontended lock cycles per second of every contender at each thread count of a run
 * (1 and 16 by default): grouped bars of the median ratio to raw Lettuce in the same round,
 * whiskers from p25 to p75, each bar labelled with its ratio and its cycles per second.
 */
final class ThroughputChart {

	static final String FILE = "performance-uncontended.svg";

	static final String HEADING = "Uncontended, ";

	private static final String[] FILLS = { "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1" };

	private static final int WIDTH = 900;

	private static final double LABEL_RIGHT = 262;

	private static final double X0 = 350;

	private static final double PLOT = 400;

	private static final double TOP = 84;

	private static final double BAR = 16;

	private static final double GAP = 3;

	private static final double GROUP_GAP = 16;

	private static final double STEP = 0.25;

	/** One bar: a library at one thread count. */
	record Bar(String library, String threads, double cyclesPerSecond, double ratio, double p25, double p75) {

		/** The text beside the bar. */
		String label() {
			return Svg.format("%.2f", this.ratio) + "x · " + Svg.format("%,.0f", this.cyclesPerSecond) + "/s";
		}

		String description() {
			return this.threads + " " + Svg.format("%.2f", this.ratio) + "x [" + Svg.format("%.2f", this.p25) + ", "
					+ Svg.format("%.2f", this.p75) + "], " + Svg.format("%,.0f", this.cyclesPerSecond) + " cycles/s";
		}

	}

	private final ResultsFile results;

	private final List<String> threads = new ArrayList<>();

	private final List<String> libraries = new ArrayList<>();

	private final List<Bar> bars = new ArrayList<>();

	private final String note;

	private final double max;

	ThroughputChart(ResultsFile results) {
		this.results = results;
		List<ResultsFile.Table> tables = results.tables(HEADING);
		if (tables.isEmpty()) {
			throw new IllegalArgumentException(results.source() + " has no '" + HEADING + "<n> threads' table");
		}
		double highest = 1;
		for (ResultsFile.Table table : tables) {
			String count = table.name(HEADING);
			this.threads.add(count);
			for (List<String> row : table.rows()) {
				String library = table.text(row, "Library");
				double[] ratio = table.ratio(row, "x raw Lettuce [p25, p75]");
				this.bars.add(new Bar(library, count, table.number(row, "lock cycles/s"), ratio[0], ratio[1], ratio[2]));
				if (!this.libraries.contains(library)) {
					this.libraries.add(library);
				}
				highest = Math.max(highest, Math.max(ratio[0], ratio[2]));
			}
		}
		this.note = tables.get(0).note();
		this.max = Math.ceil(highest / STEP - 1e-9) * STEP;
	}

	/** The bars, library by library in the order of the first table, each at every thread count. */
	List<Bar> bars() {
		List<Bar> ordered = new ArrayList<>();
		for (String library : this.libraries) {
			for (String count : this.threads) {
				this.bars.stream()
					.filter((bar) -> bar.library().equals(library) && bar.threads().equals(count))
					.forEach(ordered::add);
			}
		}
		return ordered;
	}

	/** Where a ratio lies on the horizontal axis. */
	double x(double ratio) {
		return X0 + ratio / this.max * PLOT;
	}

	String svg() {
		double group = this.threads.size() * (BAR + GAP) - GAP;
		double bottom = TOP + this.libraries.size() * (group + GROUP_GAP) - GROUP_GAP + 8;
		Svg svg = new Svg(WIDTH, title(), description());
		svg.text(16, 28, "font-size=\"17\" font-weight=\"bold\" fill=\"" + Svg.INK + "\"", title());
		svg.text(16, 48, "font-size=\"12\" fill=\"" + Svg.MUTED + "\"",
				(this.note.isEmpty() ? "" : this.note + "; ")
						+ "bar: median of the per-round ratios, whisker: p25 to p75, label: ratio · median cycles/s");
		for (double tick = 0; tick <= this.max + 1e-9; tick += STEP) {
			svg.line(x(tick), TOP - 8, x(tick), bottom, "stroke=\"" + Svg.GRID + "\" stroke-width=\"1\"");
			svg.text(x(tick), bottom + 16, "font-size=\"11\" text-anchor=\"middle\" fill=\"" + Svg.MUTED + "\"",
					Svg.format("%.2f", tick));
		}
		svg.text(X0 + PLOT / 2, bottom + 34, "font-size=\"12\" text-anchor=\"middle\" fill=\"" + Svg.INK + "\"",
				"lock cycles/s as a multiple of raw Lettuce's in the same round");
		double y = TOP;
		for (String library : this.libraries) {
			svg.library(LABEL_RIGHT, y + group / 2, library);
			for (int i = 0; i < this.threads.size(); i++) {
				String count = this.threads.get(i);
				double top = y + i * (BAR + GAP);
				svg.text(X0 - 6, top + 12, "font-size=\"11\" text-anchor=\"end\" fill=\"" + Svg.MUTED + "\"", count);
				this.bars.stream()
					.filter((bar) -> bar.library().equals(library) && bar.threads().equals(count))
					.forEach((bar) -> bar(svg, bar, top, FILLS[this.threads.indexOf(count) % FILLS.length]));
			}
			y += group + GROUP_GAP;
		}
		svg.line(X0, TOP - 8, X0, bottom, "stroke=\"" + Svg.INK + "\" stroke-width=\"1\"");
		svg.line(x(1), TOP - 8, x(1), bottom, "stroke=\"" + Svg.INK + "\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"");
		svg.text(x(1), TOP - 14, "font-size=\"11\" text-anchor=\"middle\" fill=\"" + Svg.INK + "\"",
				"raw Lettuce = 1.00");
		double end = svg.caption(16, bottom + 60, this.results);
		return svg.close(end);
	}

	private void bar(Svg svg, Bar bar, double top, String fill) {
		double middle = top + BAR / 2;
		svg.add("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>", X0, top,
				x(bar.ratio()) - X0, BAR, fill, Svg.escape(bar.library() + ", " + bar.description()));
		if (bar.p75() > bar.p25()) {
			String stroke = "stroke=\"" + Svg.INK + "\" stroke-width=\"1.5\"";
			svg.line(x(bar.p25()), middle, x(bar.p75()), middle, stroke);
			svg.line(x(bar.p25()), middle - 4, x(bar.p25()), middle + 4, stroke);
			svg.line(x(bar.p75()), middle - 4, x(bar.p75()), middle + 4, stroke);
		}
		svg.text(x(Math.max(bar.ratio(), bar.p75())) + 6, middle + 4,
				"font-size=\"11\" fill=\"" + Svg.INK + "\"", bar.label());
	}

	private String title() {
		return "Uncontended lock cycles per second, x raw Lettuce, run " + this.results.run();
	}

	private String description() {
		StringBuilder description = new StringBuilder("Horizontal bars, for each library and thread count, of lock "
				+ "cycles per second as the median ratio to raw Lettuce in the same round, with whiskers from p25 to "
				+ "p75. Source " + this.results.source() + ".");
		for (String library : this.libraries) {
			description.append(' ').append(library).append(':');
			List<Bar> of = bars().stream().filter((bar) -> bar.library().equals(library)).toList();
			for (int i = 0; i < of.size(); i++) {
				description.append(i == 0 ? " " : "; ").append(of.get(i).description());
			}
			description.append('.');
		}
		return description.toString();
	}

}
