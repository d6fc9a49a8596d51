package io.github.lockable.apicheck;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Renders the JVM's descriptors and generic signatures (JVMS 4.3, 4.7.9.1) in Java's source
 * notation: {@code (Ljava/lang/String;TT;[I)V} as {@code java.lang.String, T, int[]}. A
 * descriptor is a signature without type parameters, so one parser reads both.
 */
final class TypeSignatures {

	/** A method's rendered type parameters ({@code "<T>"} or {@code ""}), parameters, return type and throws. */
	record MethodSignature(String typeParameters, List<String> parameters, String returnType, List<String> exceptions) {
	}

	/** A class's rendered type parameters, superclass ({@code null} for none) and interfaces. */
	record ClassSignature(String typeParameters, String superclass, List<String> interfaces) {
	}

	private final String text;

	private final UnaryOperator<String> names;

	private int position;

	private TypeSignatures(String text, UnaryOperator<String> names) {
		this.text = text;
		this.names = names;
	}

	/**
	 * A method descriptor or signature.
	 * @param names turns an internal class name ({@code java/util/Map$Entry}) into a source one
	 */
	static MethodSignature method(String signature, UnaryOperator<String> names) {
		TypeSignatures reader = new TypeSignatures(signature, names);
		String typeParameters = reader.typeParameters();
		reader.expect('(');
		List<String> parameters = new ArrayList<>();
		while (reader.peek() != ')') {
			parameters.add(reader.type());
		}
		reader.expect(')');
		String returnType = reader.type();
		List<String> exceptions = new ArrayList<>();
		while (reader.position < reader.text.length()) {
			reader.expect('^');
			exceptions.add(reader.type());
		}
		return new MethodSignature(typeParameters, parameters, returnType, exceptions);
	}

	/** A class signature: type parameters, superclass, interfaces. */
	static ClassSignature type(String signature, UnaryOperator<String> names) {
		TypeSignatures reader = new TypeSignatures(signature, names);
		String typeParameters = reader.typeParameters();
		String superclass = reader.type();
		List<String> interfaces = new ArrayList<>();
		while (reader.position < reader.text.length()) {
			interfaces.add(reader.type());
		}
		return new ClassSignature(typeParameters, superclass, interfaces);
	}

	/** A field descriptor or signature. */
	static String field(String signature, UnaryOperator<String> names) {
		TypeSignatures reader = new TypeSignatures(signature, names);
		String type = reader.type();
		if (reader.position != reader.text.length()) {
			throw reader.malformed();
		}
		return type;
	}

	private String typeParameters() {
		if (peek() != '<') {
			return "";
		}
		expect('<');
		List<String> parameters = new ArrayList<>();
		while (peek() != '>') {
			int colon = this.text.indexOf(':', this.position);
			String name = this.text.substring(this.position, colon);
			this.position = colon + 1;
			List<String> bounds = new ArrayList<>();
			if (peek() != ':') {
				bounds.add(type());
			}
			while (peek() == ':') {
				this.position++;
				bounds.add(type());
			}
			// <T> is <T extends Object> as javac writes it; an interface bound alone is written ::
			if (bounds.equals(List.of("java.lang.Object"))) {
				parameters.add(name);
			}
			else {
				parameters.add(name + " extends " + String.join(" & ", bounds));
			}
		}
		expect('>');
		return "<" + String.join(", ", parameters) + ">";
	}

	private String type() {
		char c = this.text.charAt(this.position++);
		switch (c) {
			case 'B':
				return "byte";
			case 'C':
				return "char";
			case 'D':
				return "double";
			case 'F':
				return "float";
			case 'I':
				return "int";
			case 'J':
				return "long";
			case 'S':
				return "short";
			case 'Z':
				return "boolean";
			case 'V':
				return "void";
			case '[':
				return type() + "[]";
			case 'T': {
				int end = this.text.indexOf(';', this.position);
				String variable = this.text.substring(this.position, end);
				this.position = end + 1;
				return variable;
			}
			case 'L':
				return classType();
			default:
				this.position--;
				throw malformed();
		}
	}

	/** After the {@code L}: {@code pkg/Outer<args>.Inner<args>;}. */
	private String classType() {
		StringBuilder rendered = new StringBuilder();
		int start = this.position;
		while (peek() != '<' && peek() != '.' && peek() != ';') {
			this.position++;
		}
		rendered.append(this.names.apply(this.text.substring(start, this.position)));
		while (true) {
			if (peek() == '<') {
				rendered.append(typeArguments());
			}
			if (peek() == ';') {
				this.position++;
				return rendered.toString();
			}
			expect('.');
			start = this.position;
			while (peek() != '<' && peek() != '.' && peek() != ';') {
				this.position++;
			}
			rendered.append('.').append(this.text, start, this.position);
		}
	}

	private String typeArguments() {
		expect('<');
		List<String> arguments = new ArrayList<>();
		while (peek() != '>') {
			char c = peek();
			if (c == '*') {
				this.position++;
				arguments.add("?");
			}
			else if (c == '+') {
				this.position++;
				arguments.add("? extends " + type());
			}
			else if (c == '-') {
				this.position++;
				arguments.add("? super " + type());
			}
			else {
				arguments.add(type());
			}
		}
		expect('>');
		return "<" + String.join(", ", arguments) + ">";
	}

	private char peek() {
		if (this.position >= this.text.length()) {
			throw malformed();
		}
		return this.text.charAt(this.position);
	}

	private void expect(char c) {
		if (peek() != c) {
			throw malformed();
		}
		this.position++;
	}

	private IllegalArgumentException malformed() {
		return new IllegalArgumentException("Malformed signature at " + this.position + ": " + this.text);
	}

}
