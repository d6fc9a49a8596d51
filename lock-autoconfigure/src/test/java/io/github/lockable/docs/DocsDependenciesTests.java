package io.github.lockable.docs;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dependency blocks of README.md and docs/*.md can be pasted as they stand: every
 * {@code xml} block of {@code <dependency>} elements is well-formed, and every Lockable
 * artifact that a Maven or a Gradle block names is the artifact of a module of this
 * build, under its group.
 */
class DocsDependenciesTests {

	private static final String GROUP = "io.github.lockable";

	private static final Pattern GRADLE = Pattern.compile("\"" + Pattern.quote(GROUP) + ":([^:\"]+)(:[^\"]*)?\"");

	private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

	@Test
	void everyDependencyBlockNamesArtifactsOfThisBuild() throws Exception {
		Set<String> published = artifacts();
		List<String> wrong = new ArrayList<>();
		int named = 0;
		for (Path page : DocsQuotes.pages()) {
			String where = DocsQuotes.root().relativize(page).toString();
			for (String block : blocks(page, "xml")) {
				if (!block.contains("<dependency>")) {
					continue;
				}
				Document xml = parse("<dependencies>" + block + "</dependencies>");
				NodeList dependencies = xml.getElementsByTagName("dependency");
				for (int i = 0; i < dependencies.getLength(); i++) {
					Element dependency = (Element) dependencies.item(i);
					String group = text(dependency, "groupId");
					String artifact = text(dependency, "artifactId");
					if (artifact.startsWith("lockable") || group.startsWith("io.github")) {
						named++;
						if (!GROUP.equals(group) || !published.contains(artifact)) {
							wrong.add(where + ": " + group + ":" + artifact);
						}
					}
				}
			}
			for (String block : blocks(page, "kotlin")) {
				Matcher coordinate = GRADLE.matcher(block);
				while (coordinate.find()) {
					named++;
					if (!published.contains(coordinate.group(1))) {
						wrong.add(where + ": " + coordinate.group());
					}
				}
			}
		}
		assertThat(named).as("Lockable artifacts named in the docs' dependency blocks").isGreaterThan(10);
		assertThat(wrong).as("artifacts of no module of this build (%s)", published).isEmpty();
	}

	/** The artifact ids of the root pom's modules. */
	private static Set<String> artifacts() throws Exception {
		Set<String> artifacts = new TreeSet<>();
		Path root = DocsQuotes.root();
		Matcher module = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
		while (module.find()) {
			Element project = parse(Files.readString(root.resolve(module.group(1)).resolve("pom.xml")))
				.getDocumentElement();
			for (int i = 0; i < project.getChildNodes().getLength(); i++) {
				if (project.getChildNodes().item(i) instanceof Element child && child.getTagName().equals("artifactId")) {
					artifacts.add(child.getTextContent().strip());
				}
			}
		}
		return artifacts;
	}

	private static List<String> blocks(Path page, String language) {
		List<String> blocks = new ArrayList<>();
		StringBuilder block = null;
		for (String line : DocsQuotes.read(page)) {
			String fence = line.strip();
			if (block == null && fence.equals("```" + language)) {
				block = new StringBuilder();
			}
			else if (block != null && fence.equals("```")) {
				blocks.add(block.toString());
				block = null;
			}
			else if (block != null) {
				block.append(line).append('\n');
			}
		}
		return blocks;
	}

	private static Document parse(String xml) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
		try {
			return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String text(Element dependency, String tag) {
		NodeList elements = dependency.getElementsByTagName(tag);
		return (elements.getLength() > 0) ? elements.item(0).getTextContent().strip() : "";
	}

}
