package io.github.lockable.store.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.lockable.test.redis.SecuredRedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs' least-privilege ACL line (docs/operating.md, "Security") is the one the ACL tests run as, so that a user who
 * copies it gets exactly the permissions the tests prove enough.
 */
class ReadmeAclRulesTests {

	private static final String SETUSER = "ACL SETUSER lockable on >CHANGE-ME ";

	@Test
	void theReadmesAclLineIsTheTestedOne() throws IOException {
		List<String> lines = Files.readAllLines(readme()).stream().filter((line) -> line.startsWith(SETUSER)).toList();
		assertThat(lines).hasSize(1);
		assertThat(lines.get(0).substring(SETUSER.length())).isEqualTo(SecuredRedisServers.aclRules("lock"));
	}

	private static Path readme() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path readme = dir.resolve("docs/operating.md");
			if (Files.isRegularFile(readme) && Files.isDirectory(dir.resolve("lock-core"))) {
				return readme;
			}
		}
		throw new IllegalStateException("docs/operating.md not found above " + Path.of("").toAbsolutePath());
	}

}
