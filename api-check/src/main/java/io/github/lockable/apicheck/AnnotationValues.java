package io.github.lockable.apicheck;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.springframework.asm.AnnotationVisitor;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;

/**
 * Annotations, annotation element defaults and constants of a class file in Java's
 * notation, for {@link ApiListing}.
 */
final class AnnotationValues {

	/** A field descriptor as the listing names its type. */
	private final UnaryOperator<String> types;

	AnnotationValues(UnaryOperator<String> types) {
		this.types = types;
	}

	/** Renders an annotation of the type, once visited, as {@code @Type(...)}. */
	AnnotationVisitor annotation(String type, Consumer<String> rendered) {
		return new AnnotationRenderer(type, rendered);
	}

	/** Renders one element value (an annotation element's default), once visited. */
	AnnotationVisitor value(Consumer<String> rendered) {
		return new ValueVisitor(rendered);
	}

	private String typeOf(String descriptor) {
		return this.types.apply(descriptor);
	}

	/** An annotation as {@code @Type(name = value, ...)}, {@code value = } left out when it is the only element. */
	private final class AnnotationRenderer extends AnnotationVisitor {

		private final String type;

		private final Consumer<String> rendered;

		private final List<String[]> elements = new ArrayList<>();

		AnnotationRenderer(String type, Consumer<String> rendered) {
			super(SpringAsmInfo.ASM_VERSION);
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
			super(SpringAsmInfo.ASM_VERSION);
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
	static String constant(String descriptor, Object value) {
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
