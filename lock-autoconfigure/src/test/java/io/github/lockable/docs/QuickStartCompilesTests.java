package io.github.lockable.docs;

import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start compiles as written: its {@code java} blocks, one class each,
 * against this module's test class path (Lockable, Spring Boot, Spring MVC).
 */
class QuickStartCompilesTests {

	private static final Pattern CLASS = Pattern.compile("public class (\\w+)");

	@Test
	void quickStartCompilesAsWritten(@TempDir Path tmp) throws IOException {
		List<String> files = new ArrayList<>();
		for (String source : javaBlocks(DocsQuotes.root().resolve("README.md"))) {
			Matcher name = CLASS.matcher(source);
			assertThat(name.find()).as("a public class in%n%s", source).isTrue();
			files.add(Files.writeString(tmp.resolve(name.group(1) + ".java"), source).toString());
		}
		assertThat(files).as("the quick start's classes").hasSizeGreaterThanOrEqualTo(3);
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		List<String> arguments = new ArrayList<>(List.of("-proc:none", "-parameters", "-d",
				Files.createDirectory(tmp.resolve("classes")).toString(), "-cp", System.getProperty("java.class.path")));
		arguments.addAll(files);
		ByteArrayOutputStream messages = new ByteArrayOutputStream();
		int status = javac.run(null, messages, messages, arguments.toArray(String[]::new));
		assertThat(status).as("javac on the README's quick start:%n%s", messages).isZero();
	}

	private static List<String> javaBlocks(Path page) {
		List<String> blocks = new ArrayList<>();
		StringBuilder block = null;
		for (String line : DocsQuotes.read(page)) {
			if (block == null && line.equals("```java")) {
				block = new StringBuilder();
			}
			else if (block != null && line.equals("```")) {
				if (block.toString().startsWith("package ")) {
					blocks.add(block.toString());
				}
				block = null;
			}
			else if (block != null) {
				block.append(line).append('\n');
			}
		}
		return blocks;
	}

}
