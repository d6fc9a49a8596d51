package io.github.lockable.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The {@code java} blocks of the docs, and javac over them. A block is compiled unless the
 * line before its fence is {@value #FRAGMENT} (a piece of a class: a method, a few
 * statements, or a class that needs a class of its own application besides the quick
 * start's). A compiled block is one source file: its own {@code package} and imports, one
 * public or package-private top-level type named first. All compiled blocks are compiled
 * together, so a test block may name the README quick start's classes
 * ({@code com.example.shop}).
 * <p>
 * Where a class's package differs between Spring Boot lines, the block imports Boot 3's
 * and says Boot 4's in a comment on the import line, {@code // on Boot 4: import x.y.Z;}:
 * on a Boot 4 line the block is compiled with that import instead, so both are checked.
 */
final class DocsJavaBlocks {

	/** The line before a fence that keeps its block from being compiled. */
	static final String FRAGMENT = "<!-- fragment -->";

	private static final Pattern TYPE = Pattern
		.compile("^(?:public\\s+|abstract\\s+|final\\s+)*(?:class|interface|record|enum)\\s+(\\w+)", Pattern.MULTILINE);

	private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

	private static final Pattern BOOT4_IMPORT = Pattern.compile("^(\\s*)import\\s[^;]+;\\s*//\\s*on Boot 4:\\s*(import\\s[^;]+;).*$");

	private DocsJavaBlocks() {
	}

	/**
	 * One {@code java} block.
	 * @param page the page, relative to the project's root
	 * @param line the line of the block's first line of code
	 * @param source the block's text
	 * @param fragment whether it is marked a fragment
	 */
	record Block(String page, int line, String source, boolean fragment) {

		/** The source as a Boot line compiles it: Boot 4's imports on Boot 4. */
		String sourceFor(boolean boot4) {
			if (!boot4) {
				return this.source;
			}
			List<String> lines = new ArrayList<>();
			for (String line : this.source.split("\n", -1)) {
				Matcher boot4Import = BOOT4_IMPORT.matcher(line);
				lines.add(boot4Import.matches() ? boot4Import.group(1) + boot4Import.group(2) : line);
			}
			return String.join("\n", lines);
		}

		@Override
		public String toString() {
			return this.page + ":" + this.line;
		}

	}

	/** Every {@code java} block of the pages, in page order. */
	static List<Block> of(Path root, List<Path> pages) {
		List<Block> blocks = new ArrayList<>();
		for (Path page : pages) {
			List<String> lines = DocsQuotes.read(page);
			for (int i = 0; i < lines.size(); i++) {
				if (!lines.get(i).strip().equals("```java")) {
					continue;
				}
				boolean fragment = i > 0 && lines.get(i - 1).strip().equals(FRAGMENT);
				int first = i + 1;
				StringBuilder source = new StringBuilder();
				for (i = first; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
					source.append(lines.get(i)).append('\n');
				}
				blocks.add(new Block(root.relativize(page).toString(), first + 1, source.toString(), fragment));
			}
		}
		return blocks;
	}

	/**
	 * Compiles the blocks that are not fragments together against this JVM's class path.
	 * @return javac's errors, each as {@code page:line: message}; empty when all compiled
	 */
	static List<String> compile(List<Block> blocks, Path workDir, boolean boot4) throws IOException {
		List<String> problems = new ArrayList<>();
		Map<Path, Block> files = new HashMap<>();
		for (Block block : blocks) {
			if (block.fragment()) {
				continue;
			}
			Matcher pkg = PACKAGE.matcher(block.source());
			Matcher type = TYPE.matcher(block.source());
			if (!pkg.find() || !type.find()) {
				problems.add(block + ": a java block that is not a whole source file (a package and a type) must be "
						+ "marked " + FRAGMENT + " on the line before its fence");
				continue;
			}
			Path file = workDir.resolve("src").resolve(pkg.group(1).replace('.', '/')).resolve(type.group(1) + ".java");
			if (files.containsKey(file)) {
				problems.add(block + ": declares " + pkg.group(1) + "." + type.group(1) + " again, as "
						+ files.get(file) + " does");
				continue;
			}
			Files.createDirectories(file.getParent());
			Files.writeString(file, block.sourceFor(boot4));
			files.put(file, block);
		}
		if (files.isEmpty()) {
			return problems;
		}
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
			List<String> options = List.of("-proc:none", "-parameters", "-d",
					Files.createDirectories(workDir.resolve("classes")).toString(), "-cp",
					System.getProperty("java.class.path"));
			boolean compiled = javac
				.getTask(null, fileManager, diagnostics, options, null,
						fileManager.getJavaFileObjectsFromPaths(files.keySet()))
				.call();
			for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
				if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
					continue;
				}
				Block block = (diagnostic.getSource() != null) ? files.get(Path.of(diagnostic.getSource().toUri()))
						: null;
				String where = (block != null) ? block.page() + ":" + (block.line() + diagnostic.getLineNumber() - 1)
						: "javac";
				problems.add(where + ": " + diagnostic.getMessage(Locale.ROOT));
			}
			if (!compiled && problems.isEmpty()) {
				problems.add("javac failed without an error message");
			}
		}
		return problems;
	}

}
