package io.github.lockable.apicheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.springframework.asm.AnnotationVisitor;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;

/**
 * The public API of compiled classes as sorted, Java-like lines, one block per type:
 *
 * <pre>
 * public final class io.github.lockable.Example implements java.io.Serializable {
 *   public static final java.lang.String NAME = "example"
 *   public Example(java.lang.String)
 *   public static &lt;T&gt; T execute(java.lang.String, java.util.function.Supplier&lt;T&gt;) throws java.lang.Exception
 * }
 * </pre>
 *
 * A type is listed when it is public or protected and so is every type that encloses it;
 * package-private, private, synthetic, local and anonymous classes are not, nor are
 * {@code package-info} and {@code module-info}. Of a listed type: its kind, modifiers
 * ({@code abstract}, {@code final}, {@code static}, {@code sealed} with its permitted
 * subclasses), superclass and interfaces, and every public or protected field, constructor
 * and method that is neither synthetic nor a bridge (protected ones not in final classes,
 * where no one outside the package reaches them), with generic signatures, varargs, throws
 * clauses, compile-time constant values and annotation elements' defaults. Annotations are
 * listed when they are part of the Java contract: {@link #CONTRACT_ANNOTATIONS}.
 * <p>
 * Types are sorted by package, then by name (a nested type after its enclosing type); in a
 * type, enum constants come first in declaration order (their ordinals), then fields by name,
 * constructors and methods by name and signature.
 */
public final class ApiListing {

	/** Annotations listed on types and members: those the Java language itself gives a meaning. */
	static final Set<String> CONTRACT_ANNOTATIONS = Set.of("java/lang/Deprecated", "java/lang/FunctionalInterface",
			"java/lang/SafeVarargs", "java/lang/annotation/Documented", "java/lang/annotation/Inherited",
			"java/lang/annotation/Repeatable", "java/lang/annotation/Retention", "java/lang/annotation/Target");

	private static final int ASM = SpringAsmInfo.ASM_VERSION;

	private final Map<String, String> outerNames = new HashMap<>();

	private final Map<String, String> simpleNames = new HashMap<>();

	private final Map<String, Integer> nestedAccess = new HashMap<>();

	private final Map<String, Integer> classAccess = new HashMap<>();

	private final Set<String> localOrAnonymous = new TreeSet<>();

	private final Map<String, String> sourceNames = new HashMap<>();

	private final AnnotationValues values = new AnnotationValues(this::typeOf);

	private ApiListing() {
	}

	/** The listing of every class in a directory of classes ({@code target/classes}) or a jar. */
	public static List<String> of(Path classes) {
		List<byte[]> classFiles = new ArrayList<>();
		try {
			if (Files.isDirectory(classes)) {
				try (Stream<Path> files = Files.walk(classes)) {
					for (Path file : (Iterable<Path>) files::iterator) {
						if (isListedClassFile(classes.relativize(file).toString().replace('\\', '/'))) {
							classFiles.add(Files.readAllBytes(file));
						}
					}
				}
			}
			else {
				try (ZipFile jar = new ZipFile(classes.toFile())) {
					for (ZipEntry entry : jar.stream().toList()) {
						if (!entry.isDirectory() && isListedClassFile(entry.getName())) {
							try (InputStream in = jar.getInputStream(entry)) {
								classFiles.add(in.readAllBytes());
							}
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the classes of " + classes, ex);
		}
		return of(classFiles);
	}

	/** The listing of these class files' contents. */
	public static List<String> of(List<byte[]> classFiles) {
		return new ApiListing().render(classFiles);
	}

	private static boolean isListedClassFile(String path) {
		String name = path.substring(path.lastIndexOf('/') + 1);
		return name.endsWith(".class") && !name.equals("module-info.class") && !name.equals("package-info.class")
				&& !path.startsWith("META-INF/");
	}

	private List<String> render(List<byte[]> classFiles) {
		List<ClassReader> readers = classFiles.stream().map(ClassReader::new).toList();
		// First every class's nesting (the InnerClasses attributes), as a type's name and whether
		// it is listed depend on its enclosing types
		for (ClassReader reader : readers) {
			this.classAccess.put(reader.getClassName(), reader.getAccess());
			reader.accept(new ClassVisitor(ASM) {
				@Override
				public void visitInnerClass(String name, String outerName, String innerName, int access) {
					if (outerName != null && innerName != null) {
						ApiListing.this.outerNames.putIfAbsent(name, outerName);
						ApiListing.this.simpleNames.putIfAbsent(name, innerName);
					}
					else {
						ApiListing.this.localOrAnonymous.add(name);
					}
					if (name.equals(reader.getClassName())) {
						ApiListing.this.nestedAccess.put(name, access);
					}
				}
			}, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
		}
		List<TypeListing> types = new ArrayList<>();
		for (ClassReader reader : readers) {
			if (isApi(reader.getClassName())) {
				TypeListing type = new TypeListing(this);
				reader.accept(type, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
				types.add(type);
			}
		}
		types.sort(Comparator.comparing(TypeListing::packageName).thenComparing(TypeListing::nestedName));
		List<String> lines = new ArrayList<>();
		for (TypeListing type : types) {
			if (!lines.isEmpty()) {
				lines.add("");
			}
			type.addLines(lines);
		}
		return lines;
	}

	/** Whether a class of these class files is listed: an enclosing type of another module's is not. */
	boolean isApi(String name) {
		Integer classAccess = this.classAccess.get(name);
		if (classAccess == null || (classAccess & Opcodes.ACC_SYNTHETIC) != 0
				|| this.localOrAnonymous.contains(name)) {
			return false;
		}
		Integer access = this.nestedAccess.get(name);
		if (access == null) {
			return (classAccess & Opcodes.ACC_PUBLIC) != 0;
		}
		String outer = this.outerNames.get(name);
		return (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)) != 0 && (access & Opcodes.ACC_SYNTHETIC) == 0
				&& outer != null && isApi(outer);
	}

	/** {@code java/util/Map$Entry} as {@code java.util.Map.Entry}, from the InnerClasses attributes. */
	String sourceName(String internalName) {
		String known = this.sourceNames.get(internalName);
		if (known != null) {
			return known;
		}
		String outer = this.outerNames.get(internalName);
		String name = (outer != null) ? sourceName(outer) + "." + this.simpleNames.get(internalName)
				: internalName.replace('/', '.').replace('$', '.');
		this.sourceNames.put(internalName, name);
		return name;
	}

	String simpleName(String internalName) {
		String simple = this.simpleNames.get(internalName);
		return (simple != null) ? simple : internalName.substring(internalName.lastIndexOf('/') + 1);
	}

	/** The access flags of a nested class from its InnerClasses entry, or null for a top-level one. */
	Integer nestedAccess(String internalName) {
		return this.nestedAccess.get(internalName);
	}

	AnnotationValues values() {
		return this.values;
	}

	String typeOf(String descriptor) {
		return TypeSignatures.field(descriptor, this::sourceName);
	}

	AnnotationVisitor contractAnnotation(String descriptor, Consumer<String> rendered) {
		String type = Type.getType(descriptor).getInternalName();
		if (!CONTRACT_ANNOTATIONS.contains(type)) {
			return null;
		}
		return this.values.annotation(sourceName(type), rendered);
	}

}
