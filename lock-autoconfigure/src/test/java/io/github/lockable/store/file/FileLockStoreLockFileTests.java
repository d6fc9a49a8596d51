package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.file.LockMetadata.MalformedLockFileException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The lock file format, and what the store does with a file it cannot read: a partial,
 * damaged or foreign lock file is held for one TTL from its last change, then reclaimed;
 * it is never misread and never released by someone who cannot prove ownership.
 */
class FileLockStoreLockFileTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@TempDir
	Path directory;

	@Test
	void formatRoundTripsEveryField() throws MalformedLockFileException {
		ProcessIdentity holder = new ProcessIdentity("host-\"1\"\\", 77, "boot", "pid:[4026531836]", 123456L);
		LockMetadata metadata = new LockMetadata("job \"quoted\" \\ tab\t nl\n é 잠금 \u0001", "token-1", 42, holder,
				Instant.parse("2026-07-27T23:00:00.120Z"), Instant.parse("2026-07-27T23:30:00.120Z"), "1.0 \"beta\"", null, null);
		String content = metadata.write();
		assertThat(content).matches("[\\x20-\\x7e\\n]*");
		assertThat(LockMetadata.read(content)).isEqualTo(metadata);
	}

	@Test
	void unknownIdentityAndVersionAreNull() throws MalformedLockFileException {
		LockMetadata metadata = new LockMetadata("job", "token", 1, new ProcessIdentity("h", 1, null, null, null),
				Instant.EPOCH, Instant.EPOCH.plusSeconds(1), null, null, null);
		assertThat(LockMetadata.read(metadata.write())).isEqualTo(metadata);
	}

	@Test
	void lockFileWithoutFencingTokenReadsAsTokenZero() throws MalformedLockFileException {
		String content = LockFileFixtures.expired("job").write();
		String old = content.replaceFirst(",\\s*\"fencingToken\": \\d+", "");
		assertThat(old).doesNotContain("fencingToken");
		assertThat(LockMetadata.read(old).fencingToken()).isZero();
		assertThat(LockMetadata.read(content).fencingToken()).isEqualTo(1);
	}

	@Test
	void everyTruncationOfALockFileIsMalformed() {
		String content = LockFileFixtures.expired("job").write();
		int complete = content.lastIndexOf('}') + 1;
		for (int length = 0; length < complete; length++) {
			String partial = content.substring(0, length);
			assertThatExceptionOfType(MalformedLockFileException.class).as("first %d characters", length)
				.isThrownBy(() -> LockMetadata.read(partial));
		}
	}

	@Test
	void unknownFieldsAreIgnoredButDuplicatesWrongTypesAndTrailingContentAreNot() throws MalformedLockFileException {
		String content = LockFileFixtures.expired("job").write();
		String withExtra = content.replace("\"format\": 1,", "\"format\": 1, \"future\": true, \"note\": \"x\",");
		assertThat(LockMetadata.read(withExtra).job()).isEqualTo("job");
		assertThatExceptionOfType(MalformedLockFileException.class)
			.isThrownBy(() -> LockMetadata.read(content.replace("\"format\": 1,", "\"token\": \"forged\",")));
		assertThatExceptionOfType(MalformedLockFileException.class)
			.isThrownBy(() -> LockMetadata.read(content.replaceFirst("\"pid\": \\d+", "\"pid\": \"12\"")));
		assertThatExceptionOfType(MalformedLockFileException.class)
			.isThrownBy(() -> LockMetadata.read(content + "{}"));
		assertThatExceptionOfType(MalformedLockFileException.class)
			.isThrownBy(() -> LockMetadata
				.read(content.replaceFirst("\"expiresAt\": \"[^\"]+\"", "\"expiresAt\": \"soon\"")));
		assertThatExceptionOfType(MalformedLockFileException.class)
			.isThrownBy(() -> LockMetadata.read(content.replaceFirst(",\\s*\"token\": \"[^\"]+\"", "")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "{", "{\"format\": 1, \"job\": \"unreadable\", \"pid\": 12", "not json at all",
			"{\"job\": \"unreadable\"}", "\u0000\u0000\u0000\u0000" })
	void unreadableLockFileIsHeldForOneTtlFromItsLastChangeThenReclaimed(String content) throws IOException {
		LockFileFixtures.write(this.directory, "unreadable", content);
		FileLockStore store = new FileLockStore(this.directory);
		AcquireResult first = Stages.join(store.acquire(new LockRequest("unreadable", TTL)));
		assertThat(first).isInstanceOf(AcquireResult.Held.class);
		assertThat(((AcquireResult.Held) first).remainingTtl()).isBetween(TTL.minusSeconds(10), TTL);
		assertThat(((AcquireResult.Held) first).age()).isBetween(Duration.ZERO, Duration.ofSeconds(10));
		LockLease guess = new LockLease("unreadable", UUID.randomUUID().toString(), 1, Instant.now(), TTL);
		assertThat(Stages.join(store.release(guess))).isEqualTo(ReleaseResult.NOT_OWNER);
		assertThat(Stages.join(store.extend(guess, TTL))).isFalse();
		assertThat(LockFileFixtures.content(this.directory, "unreadable")).isEqualTo(content);

		FileLockStore later = new FileLockStore(this.directory, null,
				FileLockStore.DEFAULT_TIMEOUT, Clock.offset(Clock.systemUTC(), TTL.plusSeconds(1)), true);
		AcquireResult reclaimed = Stages.join(later.acquire(new LockRequest("unreadable", TTL)));
		assertThat(reclaimed).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(LockFileFixtures.json(this.directory, "unreadable").get("token").asText())
			.isEqualTo(((AcquireResult.Acquired) reclaimed).handle().lease().token());
	}

	@Test
	void lockFileTooLargeToBeOursIsUnreadable() throws IOException {
		LockFileFixtures.write(this.directory, "huge", " ".repeat(2 << 20));
		FileLockStore store = new FileLockStore(this.directory);
		assertThat(Stages.join(store.acquire(new LockRequest("huge", TTL)))).isInstanceOf(AcquireResult.Held.class);
		assertThat(Files.size(LockFileFixtures.lockFile(this.directory, "huge"))).isEqualTo(2 << 20);
	}

}
