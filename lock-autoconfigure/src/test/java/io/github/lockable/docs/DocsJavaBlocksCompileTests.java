package io.github.lockable.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code java} block of README.md and docs/*.md compiles as written, against this
 * module's test class path (Lockable, the test kit, Spring Boot, Spring MVC, Testcontainers),
 * unless it is marked a fragment: see {@link DocsJavaBlocks} for the convention, which
 * docs/testing.md states for contributors.
 */
class DocsJavaBlocksCompileTests {

	private static final boolean BOOT_4 = !SpringBootVersion.getVersion().startsWith("3.");

	@Test
	void everyJavaBlockThatIsNotAFragmentCompiles(@TempDir Path tmp) throws IOException {
		Path root = DocsQuotes.root();
		List<DocsJavaBlocks.Block> blocks = DocsJavaBlocks.of(root, DocsQuotes.pages());
		assertThat(blocks).as("the README's quick start and the test examples of docs/testing.md")
			.filteredOn((block) -> !block.fragment())
			.extracting(DocsJavaBlocks.Block::page)
			.contains("README.md", "docs/testing.md");
		assertThat(DocsJavaBlocks.compile(blocks, tmp, BOOT_4)).as("javac on the docs' java blocks").isEmpty();
	}

	@Test
	void aBlockThatStopsCompilingFailsWithItsPageAndLine(@TempDir Path tmp) throws IOException {
		Path page = Files.writeString(tmp.resolve("page.md"), """
				Text.

				```java
				package com.example;

				public class Broken {
				    int size() { return missing; }
				}
				```

				<!-- fragment -->
				```java
				int size() { return missing; }
				```

				```java
				int unmarked() { return 1; }
				```
				""");
		List<DocsJavaBlocks.Block> blocks = DocsJavaBlocks.of(tmp, List.of(page));
		assertThat(blocks).extracting(DocsJavaBlocks.Block::fragment).containsExactly(false, true, false);
		assertThat(DocsJavaBlocks.compile(blocks, Files.createDirectory(tmp.resolve("work")), BOOT_4))
			.satisfiesExactly((problem) -> assertThat(problem).startsWith("page.md:17: a java block that is not")
				.contains(DocsJavaBlocks.FRAGMENT), (problem) -> assertThat(problem).startsWith("page.md:7: ")
				.contains("missing"));
	}

	@Test
	void anImportMarkedForBoot4IsReplacedOnBoot4Only() {
		DocsJavaBlocks.Block block = new DocsJavaBlocks.Block("page.md", 1,
				"import a.b.Test; // on Boot 4: import c.d.Test;\nimport e.F;\n", false);
		assertThat(block.sourceFor(false)).isEqualTo(block.source());
		assertThat(block.sourceFor(true)).isEqualTo("import c.d.Test;\nimport e.F;\n");
	}

}
