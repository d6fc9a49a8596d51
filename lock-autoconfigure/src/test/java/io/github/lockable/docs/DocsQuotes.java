package io.github.lockable.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The log lines and failure texts the docs quote: every line of a fenced block tagged
 * {@code log <situation>} in README.md and docs/*.md, grouped by situation. A quoted line
 * is {@code LEVEL logger : message} as Spring Boot's console prints it (without time, pid
 * and thread), or, without a level, a text printed as it stands; {@code ...} stands for
 * whatever varies.
 */
final class DocsQuotes {

	private static final Pattern FENCE = Pattern.compile("^\\s*```(.*)$");

	private static final Pattern LOG_FENCE = Pattern.compile("^log\\s+([a-z0-9-]+)\\s*$");

	private static final Pattern LEVELLED = Pattern
		.compile("^(TRACE|DEBUG|INFO|WARN|ERROR)\\s+([A-Za-z0-9_.$]+)\\s+:\\s+(.*)$");

	private DocsQuotes() {
	}

	/** One quoted line and where it stands. */
	record Quote(String situation, String where, String text) {

		/** The regular expression a printed line must contain for this quote. */
		Pattern pattern() {
			Matcher levelled = LEVELLED.matcher(this.text);
			if (levelled.matches()) {
				return Pattern.compile("\\b" + levelled.group(1) + "\\b.*?" + logger(levelled.group(2)) + "\\s*:\\s"
						+ wildcards(levelled.group(3)));
			}
			return Pattern.compile(wildcards(this.text));
		}

		boolean isIn(String output) {
			Pattern pattern = pattern();
			return output.lines().map(DocsQuotes::collapse).anyMatch((line) -> pattern.matcher(line).find());
		}

		@Override
		public String toString() {
			return this.where + " [" + this.situation + "]: " + this.text;
		}

	}

	/** Every quote of the docs by situation, in page order. */
	static Map<String, List<Quote>> bySituation() {
		Map<String, List<Quote>> quotes = new TreeMap<>();
		for (Path page : pages()) {
			List<String> lines = read(page);
			String situation = null;
			boolean inBlock = false;
			for (int i = 0; i < lines.size(); i++) {
				Matcher fence = FENCE.matcher(lines.get(i));
				if (fence.matches()) {
					if (inBlock) {
						inBlock = false;
						situation = null;
					}
					else {
						inBlock = true;
						Matcher log = LOG_FENCE.matcher(fence.group(1).trim());
						if (fence.group(1).trim().startsWith("log") && !log.matches()) {
							throw new IllegalStateException(where(page, i) + ": a log block names no situation: "
									+ lines.get(i));
						}
						situation = log.matches() ? log.group(1) : null;
					}
				}
				else if (situation != null && !lines.get(i).isBlank()) {
					quotes.computeIfAbsent(situation, (key) -> new ArrayList<>())
						.add(new Quote(situation, where(page, i), collapse(lines.get(i))));
				}
			}
		}
		return quotes;
	}

	/** README.md and every page under docs/, found from the module up. */
	static List<Path> pages() {
		Path root = root();
		List<Path> pages = new ArrayList<>();
		pages.add(root.resolve("README.md"));
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((page) -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	static Path root() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))
					&& Files.isDirectory(dir.resolve("lock-core"))) {
				return dir;
			}
		}
		throw new IllegalStateException("README.md and docs/ not found above " + Path.of("").toAbsolutePath());
	}

	static List<String> read(Path page) {
		try {
			return Files.readAllLines(page);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String where(Path page, int index) {
		return root().relativize(page) + ":" + (index + 1);
	}

	/** A quoted text as a pattern: {@code ...} matches anything, white space any run of it. */
	static String wildcards(String text) {
		StringBuilder pattern = new StringBuilder();
		String[] parts = text.split("\\.\\.\\.", -1);
		for (int i = 0; i < parts.length; i++) {
			if (i > 0) {
				pattern.append(".*?");
			}
			String[] words = parts[i].split("\\s+", -1);
			for (int j = 0; j < words.length; j++) {
				if (j > 0) {
					pattern.append("\\s+");
				}
				if (!words[j].isEmpty()) {
					pattern.append(Pattern.quote(words[j]));
				}
			}
		}
		return pattern.toString();
	}

	/** A logger's name, full or with its packages cut to their initials as Boot prints long ones. */
	private static String logger(String name) {
		String[] parts = name.split("\\.");
		StringBuilder pattern = new StringBuilder();
		for (int i = 0; i < parts.length; i++) {
			if (i > 0) {
				pattern.append("\\.");
			}
			if (i < parts.length - 1) {
				pattern.append("(?:").append(Pattern.quote(parts[i])).append('|')
					.append(Pattern.quote(parts[i].substring(0, 1)));
				if (parts[i].length() == 1) {
					pattern.append("\\w*");
				}
				pattern.append(')');
			}
			else {
				pattern.append(Pattern.quote(parts[i]));
			}
		}
		return pattern.toString();
	}

	private static String collapse(String line) {
		return line.strip().replaceAll("\\s+", " ");
	}

}
