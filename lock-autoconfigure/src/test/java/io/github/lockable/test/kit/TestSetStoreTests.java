package io.github.lockable.test.kit;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.HeldLock;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockableTestKit;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test that sets {@code lockable.store} gets that store, and the kit works on it.
 */
@SpringBootTest(classes = KitApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "lockable.store=file")
class TestSetStoreTests {

	@TempDir
	static Path directory;

	@DynamicPropertySource
	static void lockDirectory(DynamicPropertyRegistry registry) {
		registry.add("lockable.file.directory", () -> directory.resolve("locks").toString());
	}

	@Autowired
	LockStore store;

	@Autowired
	LockableTestKit kit;

	@Test
	void usesTheStoreTheTestSets() {
		assertThat(this.store.name()).isEqualTo("file");
		try (HeldLock held = this.kit.hold("project:1")) {
			assertThat(directory.resolve("locks")).isNotEmptyDirectory();
		}
	}

}
