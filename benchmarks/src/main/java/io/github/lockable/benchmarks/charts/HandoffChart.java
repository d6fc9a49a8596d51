package io.github.lockable.benchmarks.charts;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The wait handoff of every library that can wait, from a release to the next holder's
 * start: its median, p90, p99 and max on a log scale, a line from the median to the max,
 * each statistic with a shape of its own, and the figures written under each line.
 */
final class HandoffChart {

	static final String FILE = "performance-handoff.svg";

	static final String HEADING = "Wait handoff, ";

	private static final String[] STATISTICS = { "median", "p90", "p99", "max" };

	private static final String[] FILLS = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2" };

	private static final int WIDTH = 900;

	private static final double LABEL_RIGHT = 324;

	private static final double X0 = 340;

	private static final double PLOT = 520;

	private static final int[] STEPS = { 1, 2, 5 };

	private static final double TOP = 104;

	private static final double ROW = 56;

	/** One library's handoffs, in milliseconds: median, p90, p99, max. */
	record Row(String library, long handoffs, double[] millis) {

		String figures() {
			StringBuilder figures = new StringBuilder(Svg.format("%,.0f", this.handoffs) + " handoffs: ");
			for (int i = 0; i < STATISTICS.length; i++) {
				figures.append(i == 0 ? "" : ", ").append(STATISTICS[i]).append(' ');
				figures.append(Svg.format("%.3f", this.millis[i]));
			}
			return figures.append(" ms").toString();
		}

	}

	private final ResultsFile results;

	private final ResultsFile.Table table;

	private final List<Row> rows = new ArrayList<>();

	private final List<BigDecimal> ticks;

	HandoffChart(ResultsFile results) {
		this.results = results;
		this.table = results.table(HEADING);
		double least = Double.MAX_VALUE;
		double most = 0;
		for (List<String> row : this.table.rows()) {
			double[] millis = new double[STATISTICS.length];
			for (int i = 0; i < STATISTICS.length; i++) {
				millis[i] = this.table.number(row, STATISTICS[i] + " ms");
				least = Math.min(least, millis[i]);
				most = Math.max(most, millis[i]);
			}
			this.rows.add(new Row(this.table.text(row, "Library"), (long) this.table.number(row, "handoffs"), millis));
		}
		this.ticks = ticks(Math.max(least, 1e-3), most);
	}

	/** The 1-2-5 ticks from the largest at or below the least figure to the smallest at or above the most. */
	static List<BigDecimal> ticks(double least, double most) {
		List<BigDecimal> ticks = new ArrayList<>();
		for (int decade = (int) Math.floor(Math.log10(least));; decade++) {
			for (int step : STEPS) {
				BigDecimal tick = BigDecimal.valueOf(step).scaleByPowerOfTen(decade);
				if (tick.doubleValue() <= least) {
					ticks.clear();
				}
				ticks.add(tick);
				if (tick.doubleValue() >= most && ticks.size() > 1) {
					return ticks;
				}
			}
		}
	}

	List<Row> rows() {
		return this.rows;
	}

	/** Where a number of milliseconds lies on the log axis. */
	double x(double millis) {
		double low = Math.log10(this.ticks.get(0).doubleValue());
		double high = Math.log10(this.ticks.get(this.ticks.size() - 1).doubleValue());
		return X0 + (Math.log10(Math.max(millis, this.ticks.get(0).doubleValue())) - low) / (high - low) * PLOT;
	}

	String svg() {
		double bottom = TOP + this.rows.size() * ROW - 14;
		Svg svg = new Svg(WIDTH, title(), description());
		svg.text(16, 28, "font-size=\"17\" font-weight=\"bold\" fill=\"" + Svg.INK + "\"", title());
		svg.text(16, 48, "font-size=\"12\" fill=\"" + Svg.MUTED + "\"",
				this.table.name(HEADING) + (this.table.note().isEmpty() ? "" : ": " + this.table.note()));
		double legend = X0;
		for (int i = 0; i < STATISTICS.length; i++) {
			marker(svg, i, legend, 72, STATISTICS[i]);
			svg.text(legend + 10, 76, "font-size=\"12\" fill=\"" + Svg.INK + "\"", STATISTICS[i]);
			legend += 80;
		}
		svg.text(legend, 76, "font-size=\"12\" fill=\"" + Svg.MUTED + "\"", "line: median to max");
		for (BigDecimal tick : this.ticks) {
			boolean decade = tick.unscaledValue().equals(BigInteger.ONE);
			svg.line(x(tick.doubleValue()), TOP - 12, x(tick.doubleValue()), bottom,
					"stroke=\"" + Svg.GRID + "\" stroke-width=\"" + (decade ? "1" : "0.5") + "\"");
			svg.text(x(tick.doubleValue()), bottom + 16,
					"font-size=\"11\" text-anchor=\"middle\" fill=\"" + Svg.MUTED + "\"",
					(tick.compareTo(BigDecimal.ONE) >= 0) ? Svg.format("%,.0f", tick.doubleValue())
							: tick.stripTrailingZeros().toPlainString());
		}
		svg.text(X0 + PLOT / 2, bottom + 34, "font-size=\"12\" text-anchor=\"middle\" fill=\"" + Svg.INK + "\"",
				"milliseconds, log scale");
		double y = TOP;
		for (Row row : this.rows) {
			svg.library(LABEL_RIGHT, y + 2, row.library());
			svg.line(x(row.millis()[0]), y, x(row.millis()[3]), y, "stroke=\"" + Svg.MUTED + "\" stroke-width=\"2\"");
			for (int i = STATISTICS.length - 1; i >= 0; i--) {
				marker(svg, i, x(row.millis()[i]), y, row.library() + ", " + STATISTICS[i] + " "
						+ Svg.format("%.3f", row.millis()[i]) + " ms");
			}
			svg.text(X0 + 4, y + 22, "font-size=\"11\" fill=\"" + Svg.MUTED + "\"", row.figures());
			y += ROW;
		}
		svg.line(X0, TOP - 12, X0, bottom, "stroke=\"" + Svg.INK + "\" stroke-width=\"1\"");
		double end = svg.caption(16, bottom + 60, this.results);
		return svg.close(end);
	}

	/** The statistic's shape: a circle, a square, a diamond, a triangle. */
	private static void marker(Svg svg, int statistic, double x, double y, String title) {
		String paint = "fill=\"" + FILLS[statistic] + "\" stroke=\"" + Svg.INK + "\" stroke-width=\"1\"";
		String tooltip = "<title>" + Svg.escape(title) + "</title>";
		switch (statistic) {
			case 0 -> svg.add("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" %s>%s</circle>", x, y, paint, tooltip);
			case 1 -> svg.add("<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" %s>%s</rect>", x - 4.5, y - 4.5,
					paint, tooltip);
			case 2 -> svg.add("<path d=\"M%.1f %.1fl6 6l-6 6l-6 -6z\" %s>%s</path>", x, y - 6, paint, tooltip);
			default -> svg.add("<path d=\"M%.1f %.1fl6 10h-12z\" %s>%s</path>", x, y - 6, paint, tooltip);
		}
	}

	private String title() {
		return "Wait handoff latency, run " + this.results.run();
	}

	private String description() {
		StringBuilder description = new StringBuilder("Dot plot on a log scale of the time from a release to the next "
				+ "holder's start, " + this.table.name(HEADING) + ", for each library that can wait. Source "
				+ this.results.source() + ".");
		for (Row row : this.rows) {
			description.append(' ').append(row.library()).append(": ").append(row.figures()).append('.');
		}
		return description.toString();
	}

}
