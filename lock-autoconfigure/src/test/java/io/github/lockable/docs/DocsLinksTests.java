package io.github.lockable.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of README.md and docs/*.md leads to a file that exists, and every
 * {@code #anchor} to a heading of that page (GitHub's rule: lower case, punctuation
 * dropped, spaces to hyphens).
 */
class DocsLinksTests {

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

	@Test
	void everyRelativeLinkAndAnchorResolves() {
		List<String> broken = new ArrayList<>();
		for (Path page : DocsQuotes.pages()) {
			List<String> lines = DocsQuotes.read(page);
			boolean inBlock = false;
			for (int i = 0; i < lines.size(); i++) {
				String line = lines.get(i);
				if (line.strip().startsWith("```")) {
					inBlock = !inBlock;
					continue;
				}
				if (inBlock) {
					continue;
				}
				Matcher link = LINK.matcher(line);
				while (link.find()) {
					String target = link.group(1);
					if (target.matches("^[a-z]+:.*")) {
						continue;
					}
					int hash = target.indexOf('#');
					String file = (hash >= 0) ? target.substring(0, hash) : target;
					Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
					String where = DocsQuotes.root().relativize(page) + ":" + (i + 1) + " " + target;
					if (!Files.exists(linked)) {
						broken.add(where + ": no such file");
					}
					else if (hash >= 0 && linked.toString().endsWith(".md")
							&& !anchors(linked).contains(target.substring(hash + 1))) {
						broken.add(where + ": no such heading");
					}
				}
			}
		}
		assertThat(broken).as("broken links").isEmpty();
	}

	private static Set<String> anchors(Path page) {
		Set<String> anchors = new HashSet<>();
		boolean inBlock = false;
		for (String line : DocsQuotes.read(page)) {
			if (line.strip().startsWith("```")) {
				inBlock = !inBlock;
			}
			Matcher heading = HEADING.matcher(line);
			if (!inBlock && heading.matches()) {
				anchors.add(heading.group(1)
					.strip()
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
					.replace(' ', '-'));
			}
		}
		return anchors;
	}

}
