package io.github.lockable.apicheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
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
import org.springframework.asm.FieldVisitor;
import org.springframework.asm.MethodVisitor;
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
				TypeListing type = new TypeListing();
				reader.accept(type, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
				types.add(type);
			}
		}
		types.sort(Comparator.comparing((TypeListing type) -> type.packageName).thenComparing(type -> type.nestedName));
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
	private boolean isApi(String name) {
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
	private String sourceName(String internalName) {
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

	private String simpleName(String internalName) {
		String simple = this.simpleNames.get(internalName);
		return (simple != null) ? simple : internalName.substring(internalName.lastIndexOf('/') + 1);
	}

	private String typeOf(String descriptor) {
		return TypeSignatures.field(descriptor, this::sourceName);
	}

	private static String modifiers(int access, int... flags) {
		StringBuilder modifiers = new StringBuilder();
		for (int flag : flags) {
			if ((access & flag) != 0) {
				modifiers.append(switch (flag) {
					case Opcodes.ACC_PUBLIC -> "public ";
					case Opcodes.ACC_PROTECTED -> "protected ";
					case Opcodes.ACC_STATIC -> "static ";
					case Opcodes.ACC_ABSTRACT -> "abstract ";
					case Opcodes.ACC_FINAL -> "final ";
					default -> throw new IllegalArgumentException("Flag " + flag);
				});
			}
		}
		return modifiers.toString();
	}

	/** One type's block, collected while ASM visits its class file. */
	private final class TypeListing extends ClassVisitor {

		private final List<String> annotations = new ArrayList<>();

		private final List<String> permitted = new ArrayList<>();

		private final List<String> enumConstants = new ArrayList<>();

		/** Sort key, line. */
		private final List<String[]> members = new ArrayList<>();

		private String modifiers;

		private String declaration;

		private String packageName;

		private String nestedName;

		private String name;

		private int access;

		private boolean innerClass;

		TypeListing() {
			super(ASM);
		}

		@Override
		public void visit(int version, int access, String name, String signature, String superName,
				String[] interfaces) {
			this.name = name;
			String sourceName = sourceName(name);
			int slash = name.lastIndexOf('/');
			this.packageName = (slash < 0) ? "" : name.substring(0, slash).replace('/', '.');
			this.nestedName = this.packageName.isEmpty() ? sourceName
					: sourceName.substring(this.packageName.length() + 1);
			Integer nested = ApiListing.this.nestedAccess.get(name);
			this.innerClass = nested != null && (nested & Opcodes.ACC_STATIC) == 0;
			this.access = (nested != null) ? nested | (access & Opcodes.ACC_SUPER) : access;
			TypeSignatures.ClassSignature types = (signature != null)
					? TypeSignatures.type(signature, ApiListing.this::sourceName)
					: new TypeSignatures.ClassSignature("",
							(superName != null) ? sourceName(superName) : null,
							Stream.of(interfaces).map(ApiListing.this::sourceName).toList());
			String kind;
			String modifiers = modifiers(this.access, Opcodes.ACC_PUBLIC, Opcodes.ACC_PROTECTED);
			List<String> supertypes = new ArrayList<>(types.interfaces());
			String superclass = types.superclass();
			if ((access & Opcodes.ACC_ANNOTATION) != 0) {
				kind = "@interface";
				supertypes.remove("java.lang.annotation.Annotation");
				superclass = null;
			}
			else if ((access & Opcodes.ACC_INTERFACE) != 0) {
				kind = "interface";
				superclass = null;
			}
			else if ((access & Opcodes.ACC_ENUM) != 0) {
				kind = "enum";
				superclass = null;
			}
			else if ((access & Opcodes.ACC_RECORD) != 0) {
				kind = "record";
				superclass = null;
			}
			else {
				kind = "class";
				modifiers += modifiers(this.access, Opcodes.ACC_STATIC, Opcodes.ACC_ABSTRACT, Opcodes.ACC_FINAL);
				if ("java.lang.Object".equals(superclass)) {
					superclass = null;
				}
			}
			this.modifiers = modifiers;
			StringBuilder header = new StringBuilder(kind).append(' ').append(sourceName).append(types.typeParameters());
			if (superclass != null) {
				header.append(" extends ").append(superclass);
			}
			if (!supertypes.isEmpty()) {
				header.append(kind.equals("interface") ? " extends " : " implements ")
					.append(String.join(", ", supertypes));
			}
			this.declaration = header.toString();
		}

		@Override
		public void visitPermittedSubclass(String permittedSubclass) {
			// An enum whose constants have bodies is sealed by javac, implicitly, to their anonymous classes
			if ((this.access & Opcodes.ACC_ENUM) == 0) {
				this.permitted.add(sourceName(permittedSubclass));
			}
		}

		@Override
		public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
			return contractAnnotation(descriptor, this.annotations::add);
		}

		@Override
		public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
			if (!isListedMember(access)) {
				return null;
			}
			List<String> annotations = new ArrayList<>();
			return new FieldVisitor(ASM) {
				@Override
				public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
					return contractAnnotation(annotation, annotations::add);
				}

				@Override
				public void visitEnd() {
					StringBuilder line = annotated(annotations);
					line.append(modifiers(access, Opcodes.ACC_PUBLIC, Opcodes.ACC_PROTECTED, Opcodes.ACC_STATIC,
							Opcodes.ACC_FINAL));
					line.append(TypeSignatures.field((signature != null) ? signature : descriptor,
							ApiListing.this::sourceName));
					line.append(' ').append(name);
					if (value != null) {
						line.append(" = ").append(constant(descriptor, value));
					}
					if ((access & Opcodes.ACC_ENUM) != 0) {
						TypeListing.this.enumConstants.add(line.toString());
					}
					else {
						TypeListing.this.members.add(new String[] { "1 " + name, line.toString() });
					}
				}
			};
		}

		@Override
		public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
				String[] exceptions) {
			if (!isListedMember(access) || (access & Opcodes.ACC_BRIDGE) != 0 || name.equals("<clinit>")) {
				return null;
			}
			List<String> annotations = new ArrayList<>();
			String[] defaultValue = new String[1];
			return new MethodVisitor(ASM) {
				@Override
				public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
					return contractAnnotation(annotation, annotations::add);
				}

				@Override
				public AnnotationVisitor visitAnnotationDefault() {
					return new ValueVisitor(value -> defaultValue[0] = value);
				}

				@Override
				public void visitEnd() {
					TypeListing.this.members
						.add(method(access, name, descriptor, signature, exceptions, annotations, defaultValue[0]));
				}
			};
		}

		private String[] method(int access, String name, String descriptor, String signature, String[] exceptions,
				List<String> annotations, String defaultValue) {
			TypeSignatures.MethodSignature method = TypeSignatures.method((signature != null) ? signature : descriptor,
					ApiListing.this::sourceName);
			List<String> parameters = new ArrayList<>(method.parameters());
			boolean constructor = name.equals("<init>");
			if (constructor && signature == null && this.innerClass && !parameters.isEmpty()) {
				// An inner class's constructor takes its enclosing instance first; Java leaves it out
				parameters.remove(0);
			}
			if ((access & Opcodes.ACC_VARARGS) != 0 && !parameters.isEmpty()) {
				String last = parameters.remove(parameters.size() - 1);
				parameters.add(last.substring(0, last.length() - 2) + "...");
			}
			List<String> thrown = (signature != null && !method.exceptions().isEmpty()) ? method.exceptions()
					: (exceptions != null) ? Stream.of(exceptions).map(ApiListing.this::sourceName).toList()
							: List.of();
			StringBuilder line = annotated(annotations);
			line.append(modifiers(access, Opcodes.ACC_PUBLIC, Opcodes.ACC_PROTECTED, Opcodes.ACC_STATIC));
			if ((this.access & Opcodes.ACC_INTERFACE) != 0 && (access & Opcodes.ACC_STATIC) == 0) {
				line.append(((access & Opcodes.ACC_ABSTRACT) != 0) ? "abstract " : "default ");
			}
			else {
				line.append(modifiers(access, Opcodes.ACC_ABSTRACT, Opcodes.ACC_FINAL));
			}
			if (!method.typeParameters().isEmpty()) {
				line.append(method.typeParameters()).append(' ');
			}
			String displayName = constructor ? simpleName(this.name) : name;
			if (!constructor) {
				line.append(method.returnType()).append(' ');
			}
			line.append(displayName).append('(').append(String.join(", ", parameters)).append(')');
			if (!thrown.isEmpty()) {
				line.append(" throws ").append(String.join(", ", thrown));
			}
			if (defaultValue != null) {
				line.append(" default ").append(defaultValue);
			}
			return new String[] { (constructor ? "2 " : "3 ") + displayName, line.toString() };
		}

		private boolean isListedMember(int access) {
			if ((access & Opcodes.ACC_SYNTHETIC) != 0) {
				return false;
			}
			if ((access & Opcodes.ACC_PUBLIC) != 0) {
				return true;
			}
			return (access & Opcodes.ACC_PROTECTED) != 0 && (this.access & Opcodes.ACC_FINAL) == 0;
		}

		void addLines(List<String> lines) {
			this.annotations.stream().sorted().forEach(lines::add);
			String header = this.modifiers + (this.permitted.isEmpty() ? "" : "sealed ") + this.declaration;
			if (!this.permitted.isEmpty()) {
				header += " permits " + String.join(", ", this.permitted.stream().sorted().toList());
			}
			lines.add(header + " {");
			this.enumConstants.forEach(constant -> lines.add("  " + constant));
			this.members.stream()
				.sorted(Comparator.comparing((String[] member) -> member[0]).thenComparing(member -> member[1]))
				.forEach(member -> lines.add("  " + member[1]));
			lines.add("}");
		}

	}

	/** A member's line so far: its annotations, sorted, on the line before its modifiers. */
	private static StringBuilder annotated(List<String> annotations) {
		StringBuilder line = new StringBuilder();
		annotations.stream().sorted().forEach(annotation -> line.append(annotation).append(' '));
		return line;
	}

	private AnnotationVisitor contractAnnotation(String descriptor, Consumer<String> rendered) {
		String type = Type.getType(descriptor).getInternalName();
		if (!CONTRACT_ANNOTATIONS.contains(type)) {
			return null;
		}
		return new AnnotationRenderer(sourceName(type), rendered);
	}

	/** An annotation as {@code @Type(name = value, ...)}, {@code value = } left out when it is the only element. */
	private final class AnnotationRenderer extends AnnotationVisitor {

		private final String type;

		private final Consumer<String> rendered;

		private final List<String[]> elements = new ArrayList<>();

		AnnotationRenderer(String type, Consumer<String> rendered) {
			super(ASM);
			this.type = type;
			this.rendered = rendered;
		}

		@Override
		public void visit(String name, Object value) {
			this.elements.add(new String[] { name, value(value) });
		}

		@Override
		public void visitEnum(String name, String descriptor, String value) {
			this.elements.add(new String[] { name, typeOf(descriptor) + "." + value });
		}

		@Override
		public AnnotationVisitor visitAnnotation(String name, String descriptor) {
			return new AnnotationRenderer(typeOf(descriptor), value -> this.elements.add(new String[] { name, value }));
		}

		@Override
		public AnnotationVisitor visitArray(String name) {
			return new ValueVisitor(value -> this.elements.add(new String[] { name, value })).array();
		}

		@Override
		public void visitEnd() {
			if (this.elements.isEmpty()) {
				this.rendered.accept("@" + this.type);
			}
			else if (this.elements.size() == 1 && this.elements.get(0)[0].equals("value")) {
				this.rendered.accept("@" + this.type + "(" + this.elements.get(0)[1] + ")");
			}
			else {
				this.rendered.accept("@" + this.type + "("
						+ String.join(", ", this.elements.stream().map(e -> e[0] + " = " + e[1]).toList()) + ")");
			}
		}

	}

	/** An element value (an annotation element's default, an array's elements) in Java's notation. */
	private final class ValueVisitor extends AnnotationVisitor {

		private final Consumer<String> rendered;

		private List<String> elements;

		ValueVisitor(Consumer<String> rendered) {
			super(ASM);
			this.rendered = rendered;
		}

		ValueVisitor array() {
			this.elements = new ArrayList<>();
			return this;
		}

		private void add(String value) {
			if (this.elements != null) {
				this.elements.add(value);
			}
			else {
				this.rendered.accept(value);
			}
		}

		@Override
		public void visit(String name, Object value) {
			add(value(value));
		}

		@Override
		public void visitEnum(String name, String descriptor, String value) {
			add(typeOf(descriptor) + "." + value);
		}

		@Override
		public AnnotationVisitor visitAnnotation(String name, String descriptor) {
			return new AnnotationRenderer(typeOf(descriptor), this::add);
		}

		@Override
		public AnnotationVisitor visitArray(String name) {
			return new ValueVisitor(this::add).array();
		}

		@Override
		public void visitEnd() {
			if (this.elements != null) {
				this.rendered.accept("{" + String.join(", ", this.elements) + "}");
			}
		}

	}

	private String value(Object value) {
		if (value instanceof Type type) {
			return typeOf(type.getDescriptor()) + ".class";
		}
		if (value.getClass().isArray()) {
			List<String> elements = new ArrayList<>();
			for (int i = 0; i < Array.getLength(value); i++) {
				elements.add(value(Array.get(value, i)));
			}
			return "{" + String.join(", ", elements) + "}";
		}
		return literal(value);
	}

	/** A constant field's value: booleans and chars are ints in the class file. */
	private static String constant(String descriptor, Object value) {
		return switch (descriptor) {
			case "Z" -> String.valueOf(((Integer) value) != 0);
			case "C" -> literal((char) ((Integer) value).intValue());
			case "B" -> "(byte) " + value;
			case "S" -> "(short) " + value;
			default -> literal(value);
		};
	}

	private static String literal(Object value) {
		if (value instanceof String string) {
			return "\"" + escape(string, '"') + "\"";
		}
		if (value instanceof Character character) {
			return "'" + escape(character.toString(), '\'') + "'";
		}
		if (value instanceof Long) {
			return value + "L";
		}
		if (value instanceof Float) {
			return value + "f";
		}
		if (value instanceof Byte) {
			return "(byte) " + value;
		}
		if (value instanceof Short) {
			return "(short) " + value;
		}
		return String.valueOf(value);
	}

	private static String escape(String text, char quote) {
		StringBuilder escaped = new StringBuilder();
		for (char c : text.toCharArray()) {
			switch (c) {
				case '\\' -> escaped.append("\\\\");
				case '\n' -> escaped.append("\\n");
				case '\r' -> escaped.append("\\r");
				case '\t' -> escaped.append("\\t");
				default -> {
					if (c == quote) {
						escaped.append('\\').append(c);
					}
					else if (c < 0x20 || c > 0x7e) {
						escaped.append("\\u%04x".formatted((int) c));
					}
					else {
						escaped.append(c);
					}
				}
			}
		}
		return escaped.toString();
	}

}
