package io.github.lockable.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

/**
 * Finds the places in the library's main sources where a message for a user is made (see
 * {@link TroubleshootingCoversMessagesTests} for the rule), with the JDK's own Java parser.
 */
final class MessageSites {

	/** The library's modules, whose {@code src/main} is read; not benchmarks, history-check, sample-app. */
	static final List<String> MODULES = List.of("lock-core", "lock-store-redis", "lock-store-file", "lock-store-jdbc",
			"lock-store-memory", "lock-autoconfigure", "lock-test");

	/** What stands for a part of a message that varies, as docs/troubleshooting.md writes it. */
	static final String VARYING = " ... ";

	/**
	 * One message site.
	 * @param file the source file's name, such as {@code LockLog.java}
	 * @param path the file relative to the project's root
	 * @param line the line the site starts on
	 * @param kind {@code WARN}, {@code ERROR}, {@code throw} and the type, or {@code problem}
	 * @param pieces the message's literal pieces (each with a letter or a digit), in order, each
	 * between two varying parts
	 * @param source the message expression as written, for a site without fixed text
	 */
	record Site(String file, String path, long line, String kind, List<String> pieces, String source) {

		/** The message with {@code ...} for each varying part, or the expression when nothing is fixed. */
		String text() {
			return this.pieces.isEmpty() ? "(no fixed text: " + this.source + ")" : String.join(VARYING, this.pieces);
		}

		/** The longest fixed piece, the one the docs must contain; "" when there is none. */
		String longestPiece() {
			return this.pieces.stream().reduce("", (a, b) -> (b.length() > a.length()) ? b : a);
		}

		/** {@code File.java: text}, how mappings and the not-user-facing list name a site. */
		String id() {
			return this.file + ": " + text();
		}

	}

	private MessageSites() {
	}

	static List<Site> find(Path root) {
		List<Path> files = new ArrayList<>();
		for (String module : MODULES) {
			Path main = root.resolve(module).resolve("src/main");
			if (!Files.isDirectory(main)) {
				continue;
			}
			try (Stream<Path> tree = Files.walk(main)) {
				tree.filter((file) -> file.toString().endsWith(".java")).sorted().forEach(files::add);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
		Iterable<? extends JavaFileObject> sources = fileManager.getJavaFileObjectsFromPaths(files);
		JavacTask task = (JavacTask) javac.getTask(null, fileManager, null, List.of("-proc:none"), null, sources);
		List<Site> sites = new ArrayList<>();
		try {
			List<CompilationUnitTree> units = new ArrayList<>();
			task.parse().forEach(units::add);
			Set<String> throwables = throwables(units);
			for (CompilationUnitTree unit : units) {
				Path file = Path.of(unit.getSourceFile().toUri());
				new Finder(unit, Trees.instance(task).getSourcePositions(), root.relativize(file).toString(),
						throwables, sites)
					.scan(unit, null);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return sites;
	}

	/** The exceptions declared in these sources whose name does not say so, such as {@code StoredLocks.StoreAnswer}. */
	private static Set<String> throwables(List<CompilationUnitTree> units) {
		Set<String> throwables = new HashSet<>();
		TreeScanner<Void, Void> classes = new TreeScanner<>() {
			@Override
			public Void visitClass(ClassTree declared, Void unused) {
				String parent = String.valueOf(declared.getExtendsClause());
				if (isThrowable(parent)) {
					throwables.add(declared.getSimpleName().toString());
				}
				return super.visitClass(declared, unused);
			}
		};
		units.forEach((unit) -> classes.scan(unit, null));
		return throwables;
	}

	private static boolean isThrowable(String type) {
		return type.endsWith("Exception") || type.endsWith("Error") || type.endsWith("Throwable");
	}

	/** Walks one file: its logger fields and string constants first, then its message sites. */
	private static final class Finder extends TreeScanner<Void, Void> {

		private final CompilationUnitTree unit;

		private final SourcePositions positions;

		private final String path;

		private final List<Site> sites;

		private final Set<String> throwables;

		private final Set<String> loggers = new HashSet<>();

		private final Deque<ClassTree> classes = new ArrayDeque<>();

		private final Map<String, ExpressionTree> constants = new HashMap<>();

		Finder(CompilationUnitTree unit, SourcePositions positions, String path, Set<String> throwables,
				List<Site> sites) {
			this.unit = unit;
			this.throwables = throwables;
			this.positions = positions;
			this.path = path;
			this.sites = sites;
			new TreeScanner<Void, Void>() {
				@Override
				public Void visitVariable(VariableTree variable, Void unused) {
					String type = String.valueOf(variable.getType());
					if (type.equals("Logger") || type.endsWith(".Logger")) {
						Finder.this.loggers.add(variable.getName().toString());
					}
					Set<Modifier> modifiers = variable.getModifiers().getFlags();
					if (type.equals("String") && variable.getInitializer() != null
							&& modifiers.contains(Modifier.STATIC) && modifiers.contains(Modifier.FINAL)) {
						Finder.this.constants.put(variable.getName().toString(), variable.getInitializer());
					}
					return super.visitVariable(variable, unused);
				}
			}.scan(unit, null);
		}

		@Override
		public Void visitClass(ClassTree declared, Void unused) {
			this.classes.push(declared);
			try {
				return super.visitClass(declared, unused);
			}
			finally {
				this.classes.pop();
			}
		}

		@Override
		public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
			if (call.getMethodSelect() instanceof IdentifierTree self && self.getName().contentEquals("super")
					&& !this.classes.isEmpty()) {
				superMessage(call, this.classes.peek());
			}
			if (call.getMethodSelect() instanceof MemberSelectTree select && !call.getArguments().isEmpty()) {
				String name = select.getIdentifier().toString();
				ExpressionTree receiver = select.getExpression();
				if ((name.equals("warn") || name.equals("error")) && isLogger(receiver)) {
					add(call, name.toUpperCase(Locale.ROOT), call.getArguments().get(0), true);
				}
				else if (name.equals("log")) {
					String level = fluentLevel(receiver);
					if (level != null) {
						add(call, level, call.getArguments().get(0), true);
					}
				}
				else if ((name.equals("isTrue") || name.equals("state")) && receiver.toString().equals("Assert")
						&& call.getArguments().size() == 2) {
					add(call, "throw Assert." + name, call.getArguments().get(1), false);
				}
				else if (name.equals("add") && receiver instanceof IdentifierTree list
						&& list.getName().contentEquals("problems")) {
					add(call, "problem", call.getArguments().get(0), false);
				}
			}
			return super.visitMethodInvocation(call, unused);
		}

		@Override
		public Void visitNewClass(NewClassTree created, Void unused) {
			String type = created.getIdentifier().toString();
			if (isThrowable(type) || this.throwables.contains(type)) {
				firstMessage(created, "throw " + type, created.getArguments());
			}
			return super.visitNewClass(created, unused);
		}

		/** The message an exception gives itself, or the WARN a health indicator's failed check logs. */
		private void superMessage(MethodInvocationTree call, ClassTree declared) {
			String parent = String.valueOf(declared.getExtendsClause());
			if (isThrowable(parent) || this.throwables.contains(parent)) {
				firstMessage(call, "throw " + declared.getSimpleName(), call.getArguments());
			}
			else if (parent.endsWith("HealthIndicator")) {
				firstMessage(call, "WARN " + parent, call.getArguments());
			}
		}

		/** The first argument with a string literal is the message: the others are a cause, a code. */
		private void firstMessage(Tree tree, String kind, List<? extends ExpressionTree> arguments) {
			for (ExpressionTree argument : arguments) {
				List<String> pieces = MessageText.pieces(argument, false, this.constants);
				if (!pieces.isEmpty()) {
					this.sites.add(site(tree, kind, pieces, argument));
					return;
				}
			}
		}

		private boolean isLogger(ExpressionTree receiver) {
			return receiver instanceof IdentifierTree field && this.loggers.contains(field.getName().toString());
		}

		/**
		 * WARN or ERROR for {@code logger.atWarn()}, {@code atError()}, {@code atLevel(... WARN ...)}
		 * in the chain, also when a helper of the file takes the builder, as in
		 * {@code common(logger.atError(), ...).log(...)}.
		 */
		private String fluentLevel(ExpressionTree chain) {
			if (!(chain instanceof MethodInvocationTree call)) {
				return null;
			}
			if (call.getMethodSelect() instanceof MemberSelectTree select) {
				if (isLogger(select.getExpression())) {
					String level = call.getArguments().toString();
					return switch (select.getIdentifier().toString()) {
						case "atWarn" -> "WARN";
						case "atError" -> "ERROR";
						case "atLevel" -> level.contains("ERROR") ? "ERROR" : level.contains("WARN") ? "WARN" : null;
						default -> null;
					};
				}
				return fluentLevel(select.getExpression());
			}
			for (ExpressionTree argument : call.getArguments()) {
				String level = fluentLevel(argument);
				if (level != null) {
					return level;
				}
			}
			return null;
		}

		private void add(Tree tree, String kind, ExpressionTree message, boolean format) {
			this.sites.add(site(tree, kind, MessageText.pieces(message, format, this.constants), message));
		}

		private Site site(Tree tree, String kind, List<String> pieces, ExpressionTree message) {
			long line = this.unit.getLineMap().getLineNumber(this.positions.getStartPosition(this.unit, tree));
			return new Site(Path.of(this.path).getFileName().toString(), this.path, line, kind, pieces,
					message.toString());
		}

	}

}
