package io.github.lockable.test.app;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Looks for lock tokens in captured text, in every form a careless log line could print
 * one: as issued, without its hyphens, in upper case.
 */
public final class TokenScanner {

	private TokenScanner() {
	}

	/**
	 * Where each token appears.
	 * @param tokens the tokens issued
	 * @param texts captured text by where it came from, such as "stdout" or "409 body"
	 * @return one line per token found in a text, empty when none leaked
	 */
	public static List<String> leaks(Collection<String> tokens, Map<String, String> texts) {
		List<String> leaks = new ArrayList<>();
		texts.forEach((source, text) -> {
			String haystack = text.toLowerCase(Locale.ROOT);
			for (String token : tokens) {
				String lower = token.toLowerCase(Locale.ROOT);
				if (haystack.contains(lower) || haystack.contains(lower.replace("-", ""))) {
					leaks.add("token " + token + " in " + source);
				}
			}
		});
		return leaks;
	}

}
