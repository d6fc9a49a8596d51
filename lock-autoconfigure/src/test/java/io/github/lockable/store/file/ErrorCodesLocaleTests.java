package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Errno names do not depend on the language of the C library's messages. Those follow the
 * process's C locale, not Java's default {@link Locale}: the German messages come from a
 * process started with {@code LANGUAGE=de}, which glibc honours in any locale but
 * {@code C}, so the test needs no generated German locale, only glibc's German message
 * catalog.
 */
class ErrorCodesLocaleTests {

	@TempDir
	Path temp;

	@Test
	void errnoNamesDoNotDependOnTheCLibrarysLanguage() {
		assumeTrue(Files.exists(Path.of("/dev/full")), "needs Linux /dev/full");
		List<String> lines;
		try (JobProcesses processes = new JobProcesses(this.temp.resolve("out"))) {
			lines = processes
				.start(Map.of("LC_ALL", "C.UTF-8", "LANGUAGE", "de", "LANG", "de_DE.UTF-8"), ErrorCodesProbe.class,
						this.temp.toString())
				.awaitExit()
				.lines()
				.toList();
		}
		assumeFalse(lines.get(0).contains("Not a directory"),
				"the C library's messages stayed English (no German message catalog): " + lines.get(0));
		assertThat(lines.subList(1, lines.size())).allSatisfy((line) -> {
			String[] expectedAndActual = line.split(" ");
			assertThat(expectedAndActual[1]).as(line).isEqualTo(expectedAndActual[0]);
		}).hasSize(4);
	}

	@Test
	void javasDefaultLocaleChangesNothing() throws IOException {
		Locale before = Locale.getDefault();
		Path regular = Files.writeString(this.temp.resolve("regular"), "not a directory");
		try {
			for (Locale locale : List.of(new Locale("tr", "TR"), Locale.GERMANY)) {
				Locale.setDefault(locale);
				IOException failure = null;
				try {
					Files.createDirectories(regular.resolve("locks"));
				}
				catch (IOException ex) {
					failure = ex;
				}
				assertThat(failure).isNotNull();
				assertThat(ErrorCodes.of(failure)).as(locale.toString()).isEqualTo("ENOTDIR");
			}
		}
		finally {
			Locale.setDefault(before);
		}
	}

}
