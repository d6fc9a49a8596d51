package io.github.lockable.apicheck;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.apicheck.fixture.GenericApi;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The listing of the fixture classes ({@code io.github.lockable.apicheck.fixture}), line by
 * line, and the check's answer when a listing and the classes disagree: so that the check of
 * the real modules cannot pass by listing nothing.
 */
class ApiListingTests {

	private static final String F = "io.github.lockable.apicheck.fixture.";

	@Test
	void listsPublicTypesAndMembersWithGenericSignatures() {
		assertThat(ApiListing.of(fixtureClasses())).containsExactly(
				"public abstract class " + F + "AbstractBase extends java.lang.RuntimeException {",
				"  public AbstractBase()",
				"  protected abstract void run() throws java.lang.InterruptedException",
				"}",
				"",
				// Constants in declaration order; GREEN's body is an anonymous class, not listed
				"public enum " + F + "Color implements java.lang.Runnable {",
				"  public static final " + F + "Color RED",
				"  public static final " + F + "Color GREEN",
				"  public static final " + F + "Color BLUE",
				"  public java.lang.String lower()",
				"  public void run()",
				"  public static " + F + "Color valueOf(java.lang.String)",
				"  public static " + F + "Color[] values()",
				"}",
				"",
				// Not the package-private and private members, the bridge compareTo(Object), the
				// lambda's method, the anonymous and the local class
				"public class " + F + "GenericApi<K extends java.lang.Comparable<K>> implements java.lang.Comparable<"
						+ F + "GenericApi<K>>, java.io.Serializable {",
				"  public static final boolean ENABLED = true",
				"  public static final java.lang.String NAME = \"generic \\\"api\\\"\"",
				"  public static final char SEPARATOR = ':'",
				"  public static final long TIMEOUT = 30L",
				"  protected int count",
				"  public java.util.Map<K, java.util.List<? extends java.lang.Number>> values",
				"  protected GenericApi(K) throws java.io.IOException",
				"  public GenericApi()",
				"  public java.util.concurrent.Callable<java.lang.String> callable()",
				"  public int compareTo(" + F + "GenericApi<K>)",
				"  public static <T> T execute(java.lang.String, java.util.function.Supplier<T>)",
				"  public <T extends java.lang.Number & java.lang.Comparable<T>> T max(java.util.List<? super T>, T...)"
						+ " throws java.lang.Exception",
				"  @java.lang.Deprecated(since = \"0.1\", forRemoval = true) public void old()",
				"  protected final void touch()",
				"}",
				"",
				"protected interface " + F + "GenericApi.Callback<R> extends java.util.function.Supplier<R> {",
				"  public default java.lang.String describe()",
				"  public abstract void done(R)",
				"  public static " + F + "GenericApi.Callback<java.lang.String> none()",
				"}",
				"",
				// Without the enclosing instance its constructor takes in the class file
				"public class " + F + "GenericApi.Inner {",
				"  public Inner(java.lang.String)",
				"}",
				"",
				"public static final class " + F + "GenericApi.Nested {",
				"  public Nested(int)",
				"}",
				"",
				// Not Hidden, nor Hidden.Visible, public inside a package-private class
				"public record " + F + "Point<T> {",
				"  public static final " + F + "Point<java.lang.String> ORIGIN",
				"  public Point(int, int, java.util.List<T>)",
				"  public final boolean equals(java.lang.Object)",
				"  public final int hashCode()",
				"  public java.util.List<T> labels()",
				"  public " + F + "Point<T> moved(int, int)",
				"  public final java.lang.String toString()",
				"  public int x()",
				"  public int y()",
				"}",
				"",
				"@java.lang.annotation.Documented",
				"@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)",
				"@java.lang.annotation.Target({java.lang.annotation.ElementType.TYPE, java.lang.annotation.ElementType.METHOD})",
				"public @interface " + F + "Settings {",
				"  public abstract " + F + "Color color() default " + F + "Color.RED",
				"  public abstract boolean enabled()",
				"  public abstract java.lang.String[] names() default {\"a\", \"b\"}",
				"  public abstract int retries() default 3",
				"  public abstract char separator() default '\\n'",
				"  public abstract long ttl() default 30000L",
				"  public abstract java.lang.Class<? extends java.lang.Number> type() default java.lang.Integer.class",
				"  public abstract java.lang.String value() default \"\"",
				"}",
				"",
				"public sealed interface " + F + "Shape permits " + F + "Shape.Circle, " + F + "Shape.Square {",
				"  public abstract double area()",
				"}",
				"",
				// A final class's protected members reach no one outside the package; Square's do
				"public static final class " + F + "Shape.Circle implements " + F + "Shape {",
				"  public Circle()",
				"  public double area()",
				"}",
				"",
				"public static class " + F + "Shape.Square implements " + F + "Shape {",
				"  public Square()",
				"  public double area()",
				"  protected void resize(double)",
				"}");
	}

	@Test
	void listingOfAJarIsTheListingOfItsClasses(@TempDir Path temp) throws IOException {
		Path jar = temp.resolve("fixture.jar");
		try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar));
				Stream<Path> files = Files.walk(fixtureClasses())) {
			for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
				out.putNextEntry(new ZipEntry(
						"io/github/lockable/apicheck/fixture/" + fixtureClasses().relativize(file)));
				out.write(Files.readAllBytes(file));
				out.closeEntry();
			}
		}
		assertThat(ApiListing.of(jar)).isEqualTo(ApiListing.of(fixtureClasses()));
	}

	@Test
	void checkReportsALineChangedInAListingAndTheUpdateCommand(@TempDir Path root) throws IOException {
		ApiCheck check = fixtureProject(root);
		assertThat(check.check()).as("no listing yet").anySatisfy(problem -> assertThat(problem)
			.isEqualTo("fixture/api/lockable-fixture.api is missing: the listing of lockable-fixture's 11 public types"));
		assertThat(check.update()).containsExactly("fixture/api/lockable-fixture.api: written");
		assertThat(check.check()).as("after the update").isEmpty();
		assertThat(check.update()).containsExactly("fixture/api/lockable-fixture.api: unchanged");

		Path listing = root.resolve("fixture/api/lockable-fixture.api");
		List<String> lines = new ArrayList<>(Files.readAllLines(listing));
		int index = lines.indexOf("  public Nested(int)");
		lines.set(index, "  public Nested(long)");
		Files.write(listing, lines);

		List<String> problems = check.check();
		assertThat(problems).startsWith(
				"fixture/api/lockable-fixture.api disagrees with the classes of lockable-fixture:",
				"--- fixture/api/lockable-fixture.api (committed)",
				"+++ fixture/api/lockable-fixture.api (from fixture/target/classes)",
				"@@ -%d,7 +%d,7 @@".formatted(index - 2, index - 2),
				" }",
				" ",
				" public static final class " + F + "GenericApi.Nested {",
				"-  public Nested(long)",
				"+  public Nested(int)",
				" }");
		assertThat(problems).endsWith("  " + ApiCheck.UPDATE_COMMAND,
				"and review their diff (git diff -- '*/api/*.api').");

		check.update();
		assertThat(check.check()).isEmpty();
	}

	@Test
	void checkReportsAListingOfNoModuleAndAPublishedModuleNotOnTheClassPath(@TempDir Path root) throws IOException {
		ApiCheck check = fixtureProject(root);
		check.update();
		Files.writeString(root.resolve("fixture/api/lockable-other.api"), "");
		Files.createDirectories(root.resolve("other/src/main/java"));
		Files.writeString(root.resolve("other/pom.xml"), pom("lockable-other", ""));
		Files.writeString(root.resolve("pom.xml"), parentPom("fixture", "other"));
		assertThat(check.check()).contains(
				"The published module other has no classes on api-check's class path: add it to api-check/pom.xml's"
						+ " dependencies, and build it with -am",
				"fixture/api/lockable-other.api is the listing of no published module on the class path: delete it,"
						+ " or add its module to api-check/pom.xml");
	}

	@Test
	void diffOfEqualListingsIsEmpty() {
		List<String> lines = List.of("a", "b", "c");
		assertThat(ListingDiff.unified("x", lines, "y", lines, 60)).isEmpty();
		assertThat(ListingDiff.unified("x", lines, "y", List.of("a", "c", "d"), 60)).containsExactly("--- x", "+++ y",
				"@@ -1,3 +1,3 @@", " a", "-b", " c", "+d");
	}

	/** A repository with one published module, {@code fixture}, whose classes are the fixtures. */
	private static ApiCheck fixtureProject(Path root) throws IOException {
		Files.writeString(root.resolve("pom.xml"), parentPom("fixture"));
		Path module = root.resolve("fixture");
		Files.createDirectories(module.resolve("src/main/java"));
		Files.writeString(module.resolve("pom.xml"), pom("lockable-fixture", ""));
		Path classes = module.resolve("target/classes");
		try (Stream<Path> files = Files.walk(fixtureClasses())) {
			for (Path file : files.filter(Files::isRegularFile).toList()) {
				Path copy = classes.resolve("io/github/lockable/apicheck/fixture")
					.resolve(fixtureClasses().relativize(file).toString());
				Files.createDirectories(copy.getParent());
				Files.copy(file, copy);
			}
		}
		Files.createDirectories(root.resolve("unpublished/src/main/java"));
		Files.writeString(root.resolve("unpublished/pom.xml"),
				pom("lockable-unpublished", "<properties><maven.deploy.skip>true</maven.deploy.skip></properties>"));
		return new ApiCheck(root, "boot3", List.of(classes));
	}

	private static String parentPom(String... modules) {
		StringBuilder pom = new StringBuilder("<project><artifactId>lockable-parent</artifactId><modules>");
		for (String module : modules) {
			pom.append("<module>").append(module).append("</module>");
		}
		return pom.append("<module>unpublished</module></modules></project>").toString();
	}

	private static String pom(String artifactId, String more) {
		return "<project><parent><artifactId>lockable-parent</artifactId></parent><artifactId>" + artifactId
				+ "</artifactId>" + more + "</project>";
	}

	static Path fixtureClasses() {
		try {
			return Path.of(GenericApi.class.getProtectionDomain().getCodeSource().getLocation().toURI())
				.resolve("io/github/lockable/apicheck/fixture");
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
