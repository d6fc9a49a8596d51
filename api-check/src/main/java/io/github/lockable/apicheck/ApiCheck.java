package io.github.lockable.apicheck;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Compares each published module's classes with its committed listing,
 * {@code <module>/api/<artifactId>.api}, or writes the listings ({@link #UPDATE_COMMAND}).
 * <p>
 * The modules are those whose classes are on api-check's class path and come from this
 * build ({@code <module>/target/classes} or the module's jar in its {@code target}); every
 * published module of the reactor with main sources must be among them, and every listing
 * must belong to one of them. A module may keep one listing per Spring Boot line,
 * {@code api/<artifactId>-<line>.api} ({@code boot3}, {@code boot4}), which is then read on
 * that line instead of {@code api/<artifactId>.api}.
 */
public final class ApiCheck {

	/** Rewrites every listing from the classes: one line, run from the repository's root. */
	public static final String UPDATE_COMMAND = "./mvnw -pl api-check -am verify -Dlockable.api.update";

	private static final int DIFF_LINES = 60;

	/** A published module: its directory in the repository, artifact, classes and listing. */
	record Module(String directory, String artifactId, Path classes, Path listing) {
	}

	private final Path root;

	private final String bootLine;

	private final List<Path> classPath;

	/**
	 * @param root the repository's root
	 * @param bootLine {@code boot3} or {@code boot4}
	 * @param classPath the class path the modules' classes are found on
	 */
	public ApiCheck(Path root, String bootLine, List<Path> classPath) {
		this.root = realPath(root);
		this.bootLine = bootLine;
		this.classPath = classPath;
	}

	/** The check as api-check's tests run it: the system properties its POM sets. */
	public static ApiCheck fromSystemProperties() {
		String root = System.getProperty("lockable.api.root");
		if (root == null) {
			throw new IllegalStateException("No lockable.api.root: run the check through Maven: " + UPDATE_COMMAND);
		}
		// Surefire's forked JVM has a manifest-only jar as java.class.path
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		return new ApiCheck(Path.of(root), System.getProperty("lockable.api.boot-line", "boot3"),
				Stream.of(classPath.split(File.pathSeparator)).filter(entry -> !entry.isEmpty()).map(Path::of).toList());
	}

	/** The file a listing is committed as: a line that says what it is, then the listing. */
	public static List<String> fileLines(String artifactId, List<String> listing) {
		List<String> lines = new ArrayList<>();
		lines.add("# The public API of " + artifactId + ", listed from its classes by api-check. Update: "
				+ UPDATE_COMMAND);
		lines.add("");
		lines.addAll(listing);
		return lines;
	}

	/**
	 * Every disagreement between the classes and the committed listings, as lines to print:
	 * empty when they agree.
	 */
	public List<String> check() {
		List<String> problems = new ArrayList<>(problemsOfModules());
		for (Module module : modules()) {
			List<String> generated = fileLines(module.artifactId(), ApiListing.of(module.classes()));
			String listingName = this.root.relativize(module.listing()).toString();
			if (!Files.exists(module.listing())) {
				problems.add(listingName + " is missing: the listing of " + module.artifactId() + "'s "
						+ generated.stream().filter(line -> line.endsWith(" {")).count() + " public types");
				continue;
			}
			List<String> diff = ListingDiff.unified(listingName + " (committed)", readLines(module.listing()),
					listingName + " (from " + this.root.relativize(module.classes()) + ")", generated, DIFF_LINES);
			if (!diff.isEmpty()) {
				problems.add(listingName + " disagrees with the classes of " + module.artifactId() + ":");
				problems.addAll(diff);
			}
		}
		if (!problems.isEmpty()) {
			problems.add("");
			problems.add("A change of API is committed with its listings. Write them from the classes with:");
			problems.add("  " + UPDATE_COMMAND);
			problems.add("and review their diff (git diff -- '*/api/*.api').");
		}
		return problems;
	}

	/** Writes every module's listing from its classes; returns one line per file, changed or not. */
	public List<String> update() {
		List<String> problems = problemsOfModules();
		if (!problems.isEmpty()) {
			throw new IllegalStateException(String.join("\n", problems));
		}
		List<String> report = new ArrayList<>();
		for (Module module : modules()) {
			List<String> generated = fileLines(module.artifactId(), ApiListing.of(module.classes()));
			String listingName = this.root.relativize(module.listing()).toString();
			if (Files.exists(module.listing()) && readLines(module.listing()).equals(generated)) {
				report.add(listingName + ": unchanged");
				continue;
			}
			try {
				Files.createDirectories(module.listing().getParent());
				Files.writeString(module.listing(), String.join("\n", generated) + "\n", StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			report.add(listingName + ": written");
		}
		return report;
	}

	/** The published modules whose classes are on the class path, by directory. */
	List<Module> modules() {
		Map<String, Module> modules = new TreeMap<>();
		for (Path entry : this.classPath) {
			String directory = moduleDirectory(entry);
			if (directory != null && !modules.containsKey(directory)) {
				String artifactId = artifactId(this.root.resolve(directory).resolve("pom.xml"));
				Path api = this.root.resolve(directory).resolve("api");
				Path perLine = api.resolve(artifactId + "-" + this.bootLine + ".api");
				modules.put(directory, new Module(directory, artifactId, realPath(entry),
						Files.exists(perLine) ? perLine : api.resolve(artifactId + ".api")));
			}
		}
		return List.copyOf(modules.values());
	}

	/**
	 * Published modules missing from the class path, modules' jars that another build made,
	 * listings of no module.
	 */
	private List<String> problemsOfModules() {
		List<String> problems = new ArrayList<>();
		List<Module> modules = modules();
		Set<String> found = new TreeSet<>();
		modules.forEach(module -> found.add(module.directory()));
		Document parent = pom(this.root.resolve("pom.xml"));
		for (Element module : children(parent.getDocumentElement(), "modules", "module")) {
			String directory = module.getTextContent().trim();
			Path pom = this.root.resolve(directory).resolve("pom.xml");
			boolean published = !"true".equals(property(pom(pom), "maven.deploy.skip"));
			if (published && Files.isDirectory(this.root.resolve(directory).resolve("src/main/java"))
					&& !found.contains(directory)) {
				problems.add("The published module " + directory + " has no classes on api-check's class path:"
						+ " add it to api-check/pom.xml's dependencies, and build it with -am");
			}
		}
		for (Path entry : this.classPath) {
			String path = entry.toString().replace('\\', '/');
			if (moduleDirectory(entry) == null && path.contains("/io/github/lockable/") && path.endsWith(".jar")) {
				problems.add(entry + " is a Lockable jar that this build did not make: build the modules with -am");
			}
		}
		try (Stream<Path> directories = Files.list(this.root)) {
			for (Path directory : (Iterable<Path>) directories::iterator) {
				Path api = directory.resolve("api");
				if (!Files.isDirectory(api)) {
					continue;
				}
				String artifactId = modules.stream()
					.filter(module -> module.directory().equals(directory.getFileName().toString()))
					.map(Module::artifactId)
					.findFirst()
					.orElse(null);
				try (Stream<Path> listings = Files.list(api)) {
					for (Path listing : (Iterable<Path>) listings::iterator) {
						String name = listing.getFileName().toString();
						if (artifactId == null || !(name.equals(artifactId + ".api")
								|| name.matches(Pattern.quote(artifactId) + "-boot\\d+\\.api"))) {
							problems.add(this.root.relativize(listing) + " is the listing of no published module"
									+ " on the class path: delete it, or add its module to api-check/pom.xml");
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return problems;
	}

	/** {@code lock-core} for {@code <root>/lock-core/target/classes} or its jar there; else null. */
	private String moduleDirectory(Path entry) {
		if (!Files.exists(entry)) {
			return null;
		}
		Path path = realPath(entry);
		if (!path.startsWith(this.root)) {
			return null;
		}
		Path relative = this.root.relativize(path);
		if (relative.getNameCount() != 3 || !relative.getName(1).toString().equals("target")) {
			return null;
		}
		String directory = relative.getName(0).toString();
		String last = relative.getName(2).toString();
		boolean classes = last.equals("classes") && Files.isDirectory(path);
		boolean jar = last.endsWith(".jar") && !last.endsWith("-tests.jar") && !last.endsWith("-sources.jar")
				&& !last.endsWith("-javadoc.jar");
		if (!(classes || jar) || directory.equals("api-check")) {
			return null;
		}
		return directory;
	}

	private static String artifactId(Path pom) {
		for (Element child : children(pom(pom).getDocumentElement(), "artifactId")) {
			return child.getTextContent().trim();
		}
		throw new IllegalStateException(pom + " has no artifactId");
	}

	private static String property(Document pom, String name) {
		for (Element value : children(pom.getDocumentElement(), "properties", name)) {
			return value.getTextContent().trim();
		}
		return null;
	}

	/** The elements at this path of child names below {@code element}. */
	private static List<Element> children(Element element, String... path) {
		List<Element> level = List.of(element);
		for (String name : path) {
			List<Element> next = new ArrayList<>();
			for (Element parent : level) {
				for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
					if (child instanceof Element childElement && childElement.getTagName().equals(name)) {
						next.add(childElement);
					}
				}
			}
			level = next;
		}
		return level;
	}

	private static Document pom(Path pom) {
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			return factory.newDocumentBuilder().parse(pom.toFile());
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read " + pom, ex);
		}
	}

	private static List<String> readLines(Path file) {
		try {
			return Files.readAllLines(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path realPath(Path path) {
		try {
			return path.toRealPath();
		}
		catch (IOException ex) {
			return path.toAbsolutePath().normalize();
		}
	}

}
