package io.github.lockable.apicheck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.springframework.asm.AnnotationVisitor;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.FieldVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.SpringAsmInfo;

/** One type's block, collected while ASM visits its class file. */
final class TypeListing extends ClassVisitor {

	private final ApiListing names;

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

	TypeListing(ApiListing names) {
		super(SpringAsmInfo.ASM_VERSION);
		this.names = names;
	}

	@Override
	public void visit(int version, int access, String name, String signature, String superName,
			String[] interfaces) {
		this.name = name;
		String sourceName = this.names.sourceName(name);
		int slash = name.lastIndexOf('/');
		this.packageName = (slash < 0) ? "" : name.substring(0, slash).replace('/', '.');
		this.nestedName = this.packageName.isEmpty() ? sourceName
				: sourceName.substring(this.packageName.length() + 1);
		Integer nested = this.names.nestedAccess(name);
		this.innerClass = nested != null && (nested & Opcodes.ACC_STATIC) == 0;
		this.access = (nested != null) ? nested | (access & Opcodes.ACC_SUPER) : access;
		TypeSignatures.ClassSignature types = (signature != null)
				? TypeSignatures.type(signature, this.names::sourceName)
				: new TypeSignatures.ClassSignature("",
						(superName != null) ? this.names.sourceName(superName) : null,
						Stream.of(interfaces).map(this.names::sourceName).toList());
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
			this.permitted.add(this.names.sourceName(permittedSubclass));
		}
	}

	@Override
	public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
		return this.names.contractAnnotation(descriptor, this.annotations::add);
	}

	@Override
	public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
		if (!isListedMember(access)) {
			return null;
		}
		List<String> annotations = new ArrayList<>();
		return new FieldVisitor(SpringAsmInfo.ASM_VERSION) {
			@Override
			public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
				return TypeListing.this.names.contractAnnotation(annotation, annotations::add);
			}

			@Override
			public void visitEnd() {
				StringBuilder line = annotated(annotations);
				line.append(modifiers(access, Opcodes.ACC_PUBLIC, Opcodes.ACC_PROTECTED, Opcodes.ACC_STATIC,
						Opcodes.ACC_FINAL));
				line.append(TypeSignatures.field((signature != null) ? signature : descriptor,
						TypeListing.this.names::sourceName));
				line.append(' ').append(name);
				if (value != null) {
					line.append(" = ").append(AnnotationValues.constant(descriptor, value));
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
		return new MethodVisitor(SpringAsmInfo.ASM_VERSION) {
			@Override
			public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
				return TypeListing.this.names.contractAnnotation(annotation, annotations::add);
			}

			@Override
			public AnnotationVisitor visitAnnotationDefault() {
				return TypeListing.this.names.values().value((value) -> defaultValue[0] = value);
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
				this.names::sourceName);
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
				: (exceptions != null) ? Stream.of(exceptions).map(this.names::sourceName).toList()
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
		String displayName = constructor ? this.names.simpleName(this.name) : name;
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

	/** The type's package, the first sort key of the listing. */
	String packageName() {
		return this.packageName;
	}

	/** The type's name in its package ({@code Outer.Inner}), the second sort key. */
	String nestedName() {
		return this.nestedName;
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

	/** A member's line so far: its annotations, sorted, on the line before its modifiers. */
	private static StringBuilder annotated(List<String> annotations) {
		StringBuilder line = new StringBuilder();
		annotations.stream().sorted().forEach(annotation -> line.append(annotation).append(' '));
		return line;
	}

}
