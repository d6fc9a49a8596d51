package io.github.lockable.test.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Which {@code redis-server} the harness starts its own processes from, with the
 * environment and embedded-redis given.
 */
class RedisBinariesTests {

	private static final Path EMBEDDED = Path.of("/tmp/embedded/redis-server-6.2.6-v5-linux-amd64");

	@TempDir
	Path directory;

	@Test
	void binDirectoryComesFirst() throws IOException {
		Path bin = server(this.directory.resolve("bin"));
		Path path = server(this.directory.resolve("path"));
		RedisBinaries.Server found = find(Map.of(RedisTestServers.BIN_VARIABLE, bin.getParent().toString(), "PATH",
				path.getParent().toString()), this::embedded);
		assertThat(found.binary()).isEqualTo(bin);
		assertThat(found.origin()).isEqualTo("redis-server from LOCKABLE_TEST_REDIS_BIN");
	}

	@Test
	void pathComesBeforeEmbedded() throws IOException {
		Path path = server(this.directory.resolve("path"));
		RedisBinaries.Server found = find(Map.of("PATH", "/nowhere:" + path.getParent()), this::embedded);
		assertThat(found.binary()).isEqualTo(path);
		assertThat(found.origin()).isEqualTo("redis-server from PATH");
	}

	@Test
	void embeddedWhenThePathHasNone() {
		RedisBinaries.Server found = find(Map.of("PATH", this.directory.toString()), this::embedded);
		assertThat(found.binary()).isEqualTo(EMBEDDED);
		assertThat(found.origin()).isEqualTo("embedded-redis binary");
	}

	@Test
	void embeddedModeSkipsThePath() throws IOException {
		Path path = server(this.directory.resolve("path"));
		RedisBinaries.Server found = find(
				Map.of(RedisTestServers.MODE_VARIABLE, "embedded", "PATH", path.getParent().toString()),
				this::embedded);
		assertThat(found.binary()).isEqualTo(EMBEDDED);
	}

	@Test
	void pathModeNeverTakesEmbedded() {
		assertThatIllegalStateException()
			.isThrownBy(() -> find(Map.of(RedisTestServers.MODE_VARIABLE, "path", "PATH", this.directory.toString()),
					this::embedded))
			.withMessageContaining("no redis-server on the PATH")
			.withMessageContaining("LOCKABLE_TEST_REDIS_MODE=path: the embedded-redis binary is not tried");
	}

	@Test
	void binDirectoryWithoutServerIsNamedAndPassedOver() throws IOException {
		Path path = server(this.directory.resolve("path"));
		Path empty = Files.createDirectories(this.directory.resolve("empty"));
		assertThat(find(Map.of(RedisTestServers.BIN_VARIABLE, empty.toString(), "PATH", path.getParent().toString()),
				this::embedded)
			.binary()).isEqualTo(path);
	}

	@Test
	void noWayFailsOnceNamingEachWayAndHowToGetOne() {
		assertThatIllegalStateException()
			.isThrownBy(() -> find(Map.of("PATH", this.directory.toString()), (attempts) -> {
				attempts.add("embedded-redis has no binary for this platform: mac-arm64");
				return null;
			}))
			.withMessageContaining("LOCKABLE_TEST_REDIS_BIN is not set")
			.withMessageContaining("no redis-server on the PATH")
			.withMessageContaining("embedded-redis has no binary for this platform: mac-arm64")
			.withMessageContaining("sudo apt-get install redis-server")
			.withMessageContaining("set LOCKABLE_TEST_REDIS_BIN")
			.withMessageContaining("LOCKABLE_TEST_REDIS_URL give the shared server only");
	}

	private Path embedded(List<String> attempts) {
		return EMBEDDED;
	}

	private static RedisBinaries.Server find(Map<String, String> environment, Function<List<String>, Path> embedded) {
		return RedisBinaries.find(new HashMap<>(environment)::get, embedded);
	}

	private static Path server(Path bin) throws IOException {
		Files.createDirectories(bin);
		Path server = bin.resolve("redis-server");
		Files.writeString(server, "#!/bin/sh\n");
		Files.setPosixFilePermissions(server, PosixFilePermissions.fromString("rwxr-xr-x"));
		return server;
	}

}
