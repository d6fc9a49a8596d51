package io.github.lockable.store.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Lock files written and read by tests, bypassing the store.
 */
final class LockFileFixtures {

	private static final ObjectMapper json = new ObjectMapper();

	private LockFileFixtures() {
	}

	/** A holder on another host: never known to be dead. */
	static ProcessIdentity elsewhere() {
		return new ProcessIdentity("elsewhere.example", 4242, UUID.randomUUID().toString(), "pid:[1]", 1L);
	}

	static LockMetadata metadata(String key, ProcessIdentity holder, Instant startedAt, Duration ttl) {
		return new LockMetadata(key, UUID.randomUUID().toString(), 1, holder, startedAt, startedAt.plus(ttl), "0.9.0", null, null);
	}

	/** A lock that expired a minute ago, of a holder that is not known to be dead. */
	static LockMetadata expired(String key) {
		return metadata(key, elsewhere(), Instant.now().minusSeconds(120), Duration.ofSeconds(60));
	}

	static Path lockFile(Path directory, String key) {
		return LockFileName.of(key).lockFile(directory);
	}

	static void write(Path directory, LockMetadata metadata) {
		write(directory, metadata.job(), metadata.write());
	}

	static void write(Path directory, String key, String content) {
		try {
			Files.createDirectories(directory);
			Files.writeString(lockFile(directory, key), content, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String content(Path directory, String key) {
		try {
			return Files.readString(lockFile(directory, key), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Parses a lock file with a real JSON parser, independent of the store's own. */
	static JsonNode json(Path directory, String key) {
		try {
			return json.readTree(content(directory, key));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
