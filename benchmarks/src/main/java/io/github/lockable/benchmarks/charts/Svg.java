package io.github.lockable.benchmarks.charts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An SVG picture written as text: on a white ground of its own, so that it reads alike in
 * GitHub's light and dark themes, with a {@code <title>} and a {@code <desc>} for screen
 * readers, and every number formatted with {@link Locale#ROOT}, so that the same figures
 * give the same bytes.
 */
final class Svg {

	static final String INK = "#1f2328";

	static final String MUTED = "#59636e";

	static final String GRID = "#d1d9e0";

	private static final int CAPTION_COLUMNS = 130;

	private final int width;

	private final String title;

	private final String description;

	private final StringBuilder body = new StringBuilder();

	Svg(int width, String title, String description) {
		this.width = width;
		this.title = title;
		this.description = description;
	}

	/** One element, its attributes formatted with {@link Locale#ROOT}. */
	Svg add(String format, Object... args) {
		this.body.append("  ").append(String.format(Locale.ROOT, format, args)).append('\n');
		return this;
	}

	Svg text(double x, double y, String attributes, String text) {
		return add("<text x=\"%.1f\" y=\"%.1f\" %s>%s</text>", x, y, attributes, escape(text));
	}

	Svg line(double x1, double y1, double x2, double y2, String attributes) {
		return add("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>", x1, y1, x2, y2, attributes);
	}

	/**
	 * A library's name right-aligned at {@code x}: up to its first comma or parenthesis on
	 * one line, the rest smaller below; Lockable's own in bold.
	 */
	Svg library(double x, double y, String library) {
		String[] parts = split(library);
		String weight = library.startsWith("Lockable") || library.startsWith("@Lockable") ? " font-weight=\"bold\"" : "";
		double first = parts[1].isEmpty() ? y + 4 : y - 2;
		text(x, first, "font-size=\"13\" text-anchor=\"end\" fill=\"" + INK + "\"" + weight, parts[0]);
		if (!parts[1].isEmpty()) {
			text(x, y + 12, "font-size=\"11\" text-anchor=\"end\" fill=\"" + MUTED + "\"", parts[1]);
		}
		return this;
	}

	/** The source file, its run and its machine line, wrapped, from {@code y} down; the y below it. */
	double caption(double x, double y, ResultsFile results) {
		List<String> lines = new ArrayList<>();
		lines.add("Source: " + results.source() + " (run " + results.run() + "), drawn by PerformanceCharts.");
		lines.addAll(wrap(results.machine(), CAPTION_COLUMNS));
		for (String line : lines) {
			text(x, y, "font-size=\"11\" fill=\"" + MUTED + "\"", line);
			y += 15;
		}
		return y;
	}

	/** The whole file, {@code height} pixels high. */
	String close(double height) {
		return String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
						+ "role=\"img\" aria-labelledby=\"title desc\" font-family=\"Helvetica, Arial, sans-serif\">\n",
				this.width, height, this.width, height)
				+ "  <title id=\"title\">" + escape(this.title) + "</title>\n" + "  <desc id=\"desc\">"
				+ escape(this.description) + "</desc>\n"
				+ String.format(Locale.ROOT, "  <rect width=\"%d\" height=\"%.0f\" fill=\"#ffffff\"/>\n", this.width,
						height)
				+ this.body + "</svg>\n";
	}

	static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

	/** A number as the results files write it: {@code 1.09}, {@code 2,540}. */
	static String format(String format, double value) {
		return String.format(Locale.ROOT, format, value);
	}

	/**
	 * Splits at the first ", " outside parentheses, or else at the first " (": "raw Lettuce
	 * (floor)" before "Spring Boot's client options", "Lockable" before "(LockTemplate...)";
	 * "Redisson RLock.tryLock(waitTime, leaseTime)" stays whole.
	 */
	static String[] split(String library) {
		int at = outsideParentheses(library, ", ");
		if (at >= 0) {
			return new String[] { library.substring(0, at), library.substring(at + 2) };
		}
		at = outsideParentheses(library, " (");
		return (at >= 0) ? new String[] { library.substring(0, at), library.substring(at + 1) }
				: new String[] { library, "" };
	}

	private static int outsideParentheses(String text, String separator) {
		int depth = 0;
		for (int i = 0; i < text.length(); i++) {
			if (depth == 0 && text.startsWith(separator, i)) {
				return i;
			}
			depth += (text.charAt(i) == '(') ? 1 : (text.charAt(i) == ')') ? -1 : 0;
		}
		return -1;
	}

	static List<String> wrap(String text, int columns) {
		List<String> lines = new ArrayList<>();
		StringBuilder line = new StringBuilder();
		for (String word : text.split(" ")) {
			if (line.length() > 0 && line.length() + 1 + word.length() > columns) {
				lines.add(line.toString());
				line.setLength(0);
			}
			line.append(line.length() > 0 ? " " : "").append(word);
		}
		lines.add(line.toString());
		return lines;
	}

}
