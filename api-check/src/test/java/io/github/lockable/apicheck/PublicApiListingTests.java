package io.github.lockable.apicheck;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Each published module's public API, listed from its classes, is its committed listing
 * ({@code <module>/api/<artifactId>.api}): a change of API is a change of that file, seen in
 * review. {@code -Dlockable.api.update} ({@link ApiCheck#UPDATE_COMMAND}) writes the listings
 * instead.
 */
class PublicApiListingTests {

	@Test
	void listingsAreTheClassesPublicApi() {
		ApiCheck check = ApiCheck.fromSystemProperties();
		assertThat(check.modules()).as("published modules on api-check's class path").isNotEmpty();
		if (Boolean.getBoolean("lockable.api.update")) {
			List<String> report = check.update();
			report.forEach(line -> System.out.println("[api-check] " + line));
			return;
		}
		List<String> problems = check.check();
		if (!problems.isEmpty()) {
			fail(String.join("\n", problems));
		}
	}

}
