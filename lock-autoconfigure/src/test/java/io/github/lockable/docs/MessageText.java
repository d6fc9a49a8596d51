package io.github.lockable.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;

/**
 * The fixed text of a message expression in a parsed source file: the pieces a reader finds
 * in every message it makes, with the varying parts between them.
 */
final class MessageText {

	private final Map<String, ExpressionTree> constants;

	private final boolean format;

	private final List<String> pieces = new ArrayList<>();

	private final StringBuilder current = new StringBuilder();

	private MessageText(Map<String, ExpressionTree> constants, boolean format) {
		this.constants = constants;
		this.format = format;
	}

	/**
	 * The literal pieces of a message expression: string literals, concatenations, both
	 * branches of a condition, a lambda's expression (a message supplier), the arguments of
	 * {@code List.of} and {@code String.format}, and the file's string constants; anything
	 * else varies, as {@code %s} does, and a log format's {@code {}}. A piece keeps only
	 * those with a letter or a digit, each without the separator it starts with.
	 * @param expression the message
	 * @param format whether it is an SLF4J format
	 * @param constants the file's {@code static final String} fields, by name
	 * @return the pieces, in order
	 */
	static List<String> pieces(ExpressionTree expression, boolean format, Map<String, ExpressionTree> constants) {
		MessageText text = new MessageText(constants, format);
		text.collect(expression, 0);
		text.flush();
		return text.pieces;
	}

	/** Whitespace as the docs compare it: every run one space. */
	static String normalize(String text) {
		return text.replaceAll("\\s+", " ").strip();
	}

	private void collect(ExpressionTree expression, int depth) {
		if (expression instanceof LiteralTree literal && literal.getValue() instanceof String text) {
			String[] parts = text.split(this.format ? "\\{}|%s|%d" : "%s|%d", -1);
			for (int i = 0; i < parts.length; i++) {
				if (i > 0) {
					flush();
				}
				this.current.append(parts[i]);
			}
		}
		else if (expression instanceof BinaryTree binary && binary.getKind() == Tree.Kind.PLUS) {
			collect(binary.getLeftOperand(), depth);
			collect(binary.getRightOperand(), depth);
		}
		else if (expression instanceof LambdaExpressionTree lambda && lambda.getBody() instanceof ExpressionTree body) {
			collect(body, depth);
		}
		else if (expression instanceof ParenthesizedTree parenthesized) {
			collect(parenthesized.getExpression(), depth);
		}
		else if (expression instanceof ConditionalExpressionTree condition) {
			alternatives(List.of(condition.getTrueExpression(), condition.getFalseExpression()), depth);
		}
		else if (expression instanceof MethodInvocationTree call
				&& List.of("List.of", "String.format").contains(call.getMethodSelect().toString())) {
			alternatives(call.getArguments(), depth);
		}
		else if (expression instanceof IdentifierTree constant && depth < 3
				&& this.constants.containsKey(constant.getName().toString())) {
			collect(this.constants.get(constant.getName().toString()), depth + 1);
		}
		else {
			flush();
		}
	}

	/** Expressions that each make a piece of their own: the branches of a condition, the arguments of a call. */
	private void alternatives(List<? extends ExpressionTree> expressions, int depth) {
		for (ExpressionTree expression : expressions) {
			flush();
			collect(expression, depth);
		}
		flush();
	}

	private void flush() {
		// ": key '" + key reads "key '...'" in the docs: a piece starts after its separator
		String piece = normalize(this.current.toString()).replaceFirst("^[:;,]\\s*", "");
		if (piece.chars().anyMatch(Character::isLetterOrDigit)) {
			this.pieces.add(piece);
		}
		this.current.setLength(0);
	}

}
