package io.github.lockable.test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * What a hostile or careless resolver returns, for property-based tests: control
 * characters, line breaks, spaces, Redis glob and hash-tag characters, path separators and
 * {@code ../}, Unicode (lone and paired surrogates, right-to-left and zero-width marks,
 * combining and full-width characters), percent escapes, very long values, empty and
 * {@code null}; mixed into well-formed keys, so that one bad character hides among good
 * ones, and well-formed keys too, some just over the length limit.
 * <p>
 * {@link #obeysTheRule(String, int)} is the oracle: the key rule written as the design
 * states it, a regular expression, independent of the hand-written check under test.
 */
public final class HostileKeys {

	/** The characters a key part may have. */
	public static final String ALLOWED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:._-";

	private static final List<String> HOSTILE = List.of("\u0000", "\u0001", "\u001b", "\u007f", "\t", "\n", "\r",
			"\r\n", " ", "\u00a0", "*", "?", "[", "]", "{", "}", "{}", "^", "\\", "/", "../", "..\\", "./", "%",
			"%2F", "%00", "~", "$", "#", "@", "+", "=", ",", ";", "|", "&", "<", ">", "\"", "'", "`", "(", ")",
			"!", "\ud800", "\udfff", "\udbff\udfff", "\ud83d\udd12", "\u202e", "\u200f", "\u200b", "\u200d",
			"\u2060", "\ufeff", "\u0301", "\u0085", "\u2028", "\u2029", "\uff0f", "\uff0e", "\u2215", "é", "ß",
			"İ", "\u0130", "\u03a3", "\uffff", "\ufffe", "lockable:fence:{", "}:released", "*}", "{lock:");

	private static final Pattern RULE = Pattern.compile("[A-Za-z0-9:._-]+");

	private HostileKeys() {
	}

	/**
	 * Any resolver output: mostly hostile, some well-formed, a few {@code null}.
	 * @return the arbitrary
	 */
	public static Arbitrary<String> resolverOutputs() {
		Arbitrary<String> hostilePiece = Arbitraries.of(HOSTILE);
		Arbitrary<String> mixed = Arbitraries.frequencyOf(Tuple.of(2, hostilePiece), Tuple.of(3, allowedChars()))
			.list()
			.ofMinSize(1)
			.ofMaxSize(24)
			.map((pieces) -> String.join("", pieces));
		Arbitrary<String> oneBadAmongGood = Combinators.combine(acceptedParts(), hostilePiece, Arbitraries.doubles().between(0, 1))
			.as((good, bad, where) -> {
				int at = (int) (where * good.length());
				return good.substring(0, at) + bad + good.substring(at);
			});
		Arbitrary<String> anyCharacters = Arbitraries.strings().all().ofMaxLength(40);
		Arbitrary<String> veryLong = Arbitraries.strings().withChars(ALLOWED + "/. {}*").ofMinLength(190).ofMaxLength(5_000);
		Arbitrary<String> fixed = Arbitraries.of("", " ", ".", "..", "...", "../../../../etc/passwd", "/etc/passwd",
				"C:\\Windows\\win.ini", "{", "}", "{}", "*", "?", "[a-z]", "lock:*", "{lock:x}", "x}:released",
				"\u0000", "\n", "a\nb", "a\r\nSET x y", "..\u0000/x", "\ud800", "\u202egnp.exe");
		return Arbitraries.frequencyOf(Tuple.of(3, acceptedParts()), Tuple.of(4, mixed), Tuple.of(3, oneBadAmongGood),
				Tuple.of(2, anyCharacters), Tuple.of(1, veryLong), Tuple.of(1, fixed))
			.injectNull(0.01);
	}

	/**
	 * Well-formed parts of 1 to 210 characters: at most 200 pass the default limit.
	 * @return the arbitrary
	 */
	public static Arbitrary<String> acceptedParts() {
		return Arbitraries.strings().withChars(ALLOWED).ofMinLength(1).ofMaxLength(210);
	}

	private static Arbitrary<String> allowedChars() {
		return Arbitraries.strings().withChars(ALLOWED).ofMinLength(1).ofMaxLength(6);
	}

	/**
	 * The design's key rule, {@code [A-Za-z0-9:._-]{1,maxLength}}.
	 * @param part a resolver output, possibly {@code null}
	 * @param maxLength {@code lockable.max-key-length}
	 * @return whether the part may be used
	 */
	public static boolean obeysTheRule(String part, int maxLength) {
		return part != null && part.length() <= maxLength && RULE.matcher(part).matches();
	}

	/**
	 * Every message {@code LockKeys} may give for a refused part: fixed phrases, so none
	 * can repeat the value.
	 * @param maxLength {@code lockable.max-key-length}
	 * @return a pattern of the possible problems
	 */
	public static Pattern problems(int maxLength) {
		List<String> forms = new ArrayList<>();
		forms.add("is null");
		forms.add("is empty");
		forms.add("is \\d+ characters long, more than the " + maxLength + " allowed");
		forms.add("has a character outside A-Z a-z 0-9 : \\. _ -");
		return Pattern.compile("(" + String.join("|", forms) + ")");
	}

}
