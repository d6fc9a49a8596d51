package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * No key can name a file outside the lock directory, and no two keys share a file name.
 */
class FileLockStoreFileNameTests {

	/** The longest file name: readable prefix, '~', SHA-256 in hex, ".lock". */
	private static final int MAX_NAME_LENGTH = LockFileName.READABLE_LENGTH + 1 + 64 + ".lock".length();

	@TempDir
	Path temp;

	static List<String> hostileKeys() {
		return List.of("../escape", "../../../../etc/passwd", "/etc/passwd", "/", "a/b", "a\\b", "C:\\Windows\\x",
				"..", ".", "...", ".hidden", "..%2f..%2fetc", "%2e%2e", "~root", "*", "?", "CON", "nul", "a:b|c<d>e\"f",
				"lock:admin:rebuild-index", "잠금/작업", "\u202eexe.txt", "x".repeat(10_000),
				"../".repeat(3_000), "é".repeat(500));
	}

	@ParameterizedTest
	@MethodSource("hostileKeys")
	void keyBecomesOneFileInsideTheDirectory(String key) throws IOException {
		Path directory = this.temp.resolve("locks");
		FileLockStore store = new FileLockStore(directory);
		LockHandle handle = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest(key, Duration.ofSeconds(30)))))
			.handle();
		try (Stream<Path> files = Files.list(directory)) {
			List<Path> lockFiles = files
				.filter((file) -> !Set.of(LockGuard.FILE_NAME, LockGuard.COUNTER_FILE_NAME)
					.contains(file.getFileName().toString()))
				.toList();
			assertThat(lockFiles).hasSize(1);
			Path lockFile = lockFiles.get(0);
			assertThat(lockFile.getParent()).isEqualTo(directory);
			assertThat(lockFile.getFileName().toString()).matches("[A-Za-z0-9_%~-][A-Za-z0-9._%~-]*\\.lock")
				.hasSizeLessThanOrEqualTo(MAX_NAME_LENGTH);
		}
		try (Stream<Path> outside = Files.list(this.temp)) {
			assertThat(outside).containsExactly(directory);
		}
		assertThat(LockFileFixtures.json(directory, key).get("job").asText()).isEqualTo(key);
		assertThat(Stages.join(store.acquire(new LockRequest(key, Duration.ofSeconds(30))))).isInstanceOf(AcquireResult.Held.class);
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void emptyKeyHasNoFileName() {
		// Found by LockFileNamePropertyTests: it was the hidden ".lock". LockRequest refuses an
		// empty key first, so no store ever asked; the name mapping now refuses it on its own.
		assertThatIllegalArgumentException().isThrownBy(() -> LockFileName.of(""));
	}

	@Test
	void keyWithAnUnpairedSurrogateHasNoFileName() {
		// Found by LockFileNamePropertyTests: "\ud800" had the name of "?", as UTF-8 has no
		// form for a lone surrogate. LockRequest refuses such a key first, for every store.
		assertThatIllegalArgumentException().isThrownBy(() -> LockFileName.of("a\ud800"));
		assertThatIllegalArgumentException().isThrownBy(() -> LockFileName.of("\udc00a"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LockRequest("lock:a\ud800", Duration.ofSeconds(1)))
			.withMessage("key must not contain an unpaired surrogate");
		assertThat(LockFileName.of("\ud83d\udd12").base()).isEqualTo("%F0%9F%94%92");
		assertThat(new LockRequest("lock:\ud83d\udd12", Duration.ofSeconds(1)).key()).endsWith("\ud83d\udd12");
	}

	@Test
	void separatorsDotsAndPercentAreEncoded() {
		assertThat(LockFileName.of("../x").base()).isEqualTo("%2E.%2Fx");
		assertThat(LockFileName.of("..").base()).isEqualTo("%2E.");
		assertThat(LockFileName.of(".").base()).isEqualTo("%2E");
		assertThat(LockFileName.of("/etc/passwd").base()).isEqualTo("%2Fetc%2Fpasswd");
		assertThat(LockFileName.of("a\\b").base()).isEqualTo("a%5Cb");
		assertThat(LockFileName.of("%2F").base()).isEqualTo("%252F");
		assertThat(LockFileName.of("lock:daily-report_v2.x").base()).isEqualTo("lock%3Adaily-report_v2.x");
		assertThat(LockFileName.of("é").base()).isEqualTo("%C3%A9");
	}

	@Test
	void nulIsEncodedAndRefusedBeforeAnyStoreCall() {
		assertThat(LockFileName.of("a\0b").base()).isEqualTo("a%00b");
		assertThatIllegalArgumentException().isThrownBy(() -> new LockRequest("a\0b", Duration.ofSeconds(1)));
	}

	@Test
	void lockFileNeverLeavesTheDirectory() {
		Path directory = this.temp.resolve("locks");
		for (String key : hostileKeys()) {
			LockFileName name = LockFileName.of(key);
			assertThat(name.lockFile(directory).getParent()).isEqualTo(directory);
			Path temp = LockDirectory.tempFile(name.lockFile(directory));
			assertThat(temp.getParent()).isEqualTo(directory);
			assertThat(temp.getFileName().toString()).startsWith(".").endsWith(".tmp");
		}
	}

	@Test
	void longKeysKeepAReadablePrefixAndDifferByTheirHash() {
		String common = "lock:" + "x".repeat(9_000);
		LockFileName first = LockFileName.of(common + "first");
		LockFileName second = LockFileName.of(common + "second");
		assertThat(first.base()).startsWith("lock%3Axxx").contains("~").isNotEqualTo(second.base());
		assertThat(first.base()).hasSize(LockFileName.READABLE_LENGTH + 1 + 64);
		assertThat(LockFileName.of("x".repeat(LockFileName.READABLE_LENGTH)).base())
			.isEqualTo("x".repeat(LockFileName.READABLE_LENGTH));
		assertThat(LockFileName.of("x".repeat(LockFileName.READABLE_LENGTH + 1)).base()).contains("~");
	}

	@Test
	void shorteningNeverSplitsAnEscape() {
		for (int prefix = 95; prefix <= 100; prefix++) {
			String base = LockFileName.of("x".repeat(prefix) + "/////").base();
			String readable = base.substring(0, base.indexOf('~'));
			assertThat(readable).as("prefix %d", prefix).matches("x*(%2F)*").hasSizeLessThanOrEqualTo(100);
		}
	}

	@Test
	void distinctKeysGetDistinctNames() {
		List<String> keys = Stream
			.concat(hostileKeys().stream(),
					Stream.of("a/b", "a%2Fb", "a%252Fb", "A/B", "a.b", "a%2Eb", ".a", "%2Ea", "x".repeat(101),
							"x".repeat(100) + "~", "x".repeat(100) + "%7E"))
			.distinct()
			.toList();
		Set<String> names = new HashSet<>();
		for (String key : keys) {
			names.add(LockFileName.of(key).base());
		}
		assertThat(names).hasSameSizeAs(keys);
	}

}
