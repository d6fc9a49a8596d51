package io.github.lockable.store.file;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.test.HostileKeys;

import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * No generated key names a file outside the lock directory: every name is one path element
 * of safe characters whose canonical path is a direct child of the directory, and no two
 * keys share a name. Raw resolver outputs go straight to the name mapping (it must hold
 * for any key, checked or not); accepted keys go through a real file store too.
 */
class LockFileNamePropertyTests {

	private static final int MAX_NAME_LENGTH = LockFileName.READABLE_LENGTH + 1 + 64 + ".lock".length();

	private static final Set<String> BOOKKEEPING = Set.of(LockGuard.FILE_NAME, LockGuard.COUNTER_FILE_NAME);

	private static Path root;

	private static Path directory;

	private static FileLockStore store;

	/** Which key each name was given to, across tries. */
	private static final Map<String, String> owners = new ConcurrentHashMap<>();

	@BeforeContainer
	static void createDirectory() throws IOException {
		root = Files.createTempDirectory("lockable-names-").toRealPath();
		directory = root.resolve("locks");
		store = new FileLockStore(directory);
	}

	@AfterContainer
	static void deleteDirectory() throws IOException {
		store.close();
		FileSystemUtils.deleteRecursively(root);
	}

	@Provide
	Arbitrary<String> resolverOutputs() {
		return HostileKeys.resolverOutputs();
	}

	@Provide
	Arbitrary<String> acceptedKeys() {
		return HostileKeys.acceptedParts().filter((part) -> part.length() <= 200).map((part) -> "lock:" + part);
	}

	@Property(tries = 10_000)
	void everyKeyNamesOneDirectChildOfTheLockDirectory(@ForAll("resolverOutputs") String key) throws IOException {
		Assume.that(key != null);
		if (key.isEmpty() || !StandardCharsets.UTF_8.newEncoder().canEncode(key)) {
			assertThatIllegalArgumentException().isThrownBy(() -> LockFileName.of(key));
			return;
		}
		LockFileName name = LockFileName.of(key);
		for (Path file : List.of(name.lockFile(directory), LockDirectory.tempFile(name.lockFile(directory)))) {
			assertThat(file.getParent()).isEqualTo(directory);
			File canonical = file.toFile().getCanonicalFile();
			assertThat(canonical.getParentFile()).isEqualTo(directory.toFile().getCanonicalFile());
			assertThat(canonical.getName()).isEqualTo(file.getFileName().toString());
		}
		assertThat(name.lockFile(directory).getFileName().toString())
			.matches("[A-Za-z0-9_%~-][A-Za-z0-9._%~-]*\\.lock")
			.hasSizeLessThanOrEqualTo(MAX_NAME_LENGTH);
		String earlier = owners.putIfAbsent(name.base(), key);
		assertThat(earlier).as("another key with the same file name").isIn(null, key);
	}

	/** Fewer tries: each creates and deletes real files, about 20ms on a loaded machine. */
	@Property(tries = 500)
	void acceptedKeyIsLockedInOneFileInsideTheDirectory(@ForAll("acceptedKeys") String key) throws IOException {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, Duration.ofSeconds(30))));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		LockHandle handle = ((AcquireResult.Acquired) result).handle();
		try (Stream<Path> files = Files.list(directory)) {
			List<Path> lockFiles = files.filter((file) -> !BOOKKEEPING.contains(file.getFileName().toString()))
				.toList();
			assertThat(lockFiles).hasSize(1);
			assertThat(lockFiles.get(0).toRealPath().getParent()).isEqualTo(directory.toRealPath());
		}
		try (Stream<Path> outside = Files.list(root)) {
			assertThat(outside).containsExactly(directory);
		}
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
	}

}
