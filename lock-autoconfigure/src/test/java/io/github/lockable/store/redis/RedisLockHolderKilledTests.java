package io.github.lockable.store.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder process killed with {@code SIGKILL} leaves its Redis lock to its TTL: other
 * callers are refused while the TTL runs and get the lock once it ran out, with a greater
 * fencing token. (The file store frees such a lock at once, since it can see that the
 * holder died: {@code FileLockStoreProcessTests}.)
 */
@ExtendWith(RedisExtension.class)
class RedisLockHolderKilledTests {

	private static final Duration TTL = Duration.ofSeconds(3);

	private static final String KEY = "lock:killed-holder";

	@TempDir
	private Path directory;

	private Process holder;

	@AfterEach
	void killLeftover() throws InterruptedException {
		if (this.holder != null) {
			this.holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void lockOfAKilledHolderFreesAfterItsTtlAndNotBefore(RedisTestServer redis) throws Exception {
		redis.commands().del(KEY);
		Path output = this.directory.resolve("holder.out");
		this.holder = new ProcessBuilder(javaCommand(redis)).redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
		await().atMost(Duration.ofSeconds(60)).until(() -> acquiredLine(output).isPresent() || !this.holder.isAlive());
		long holderToken = Long.parseLong(acquiredLine(output).orElseThrow(() -> new AssertionError(read(output)))
			.substring("acquired ".length())
			.trim());

		this.holder.destroyForcibly();
		assertThat(this.holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.holder.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
		long killed = System.nanoTime();
		long pttl = redis.commands().pttl(KEY);
		// Redis read the TTL between these two instants: the lock expires in that window, plus pttl.
		long pttlRead = System.nanoTime();
		assertThat(pttl).as("the dead holder's lock is still there").isBetween(1L, TTL.toMillis());
		long expiresAt = killed + TimeUnit.MILLISECONDS.toNanos(pttl);
		long expiresAtLatest = pttlRead + TimeUnit.MILLISECONDS.toNanos(pttl);

		LettuceConnectionFactory factory = redis.connectionFactory(Duration.ofSeconds(10));
		try (RedisLockStore store = new RedisLockStore(factory, Duration.ofSeconds(2))) {
			List<Long> refusedAt = new ArrayList<>();
			AcquireResult[] acquired = new AcquireResult[1];
			await().atMost(TTL.plusSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
				AcquireResult result = Stages.join(store.acquire(new LockRequest(KEY, TTL, true)));
				if (result instanceof AcquireResult.Held) {
					refusedAt.add(System.nanoTime());
					return false;
				}
				acquired[0] = result;
				return true;
			});
			long acquiredAt = System.nanoTime();
			assertThat(refusedAt).as("refused while the TTL runs").isNotEmpty();
			assertThat(acquired[0]).isInstanceOf(AcquireResult.Acquired.class);
			// Not before the TTL ran out (Redis and this JVM share a clock; 20ms for rounding).
			assertThat(acquiredAt).isGreaterThan(expiresAt - TimeUnit.MILLISECONDS.toNanos(20));
			assertThat(Duration.ofNanos(acquiredAt - expiresAtLatest)).isLessThan(Duration.ofSeconds(1));
			AcquireResult.Acquired next = (AcquireResult.Acquired) acquired[0];
			assertThat(next.handle().lease().fencingToken()).isGreaterThan(holderToken);
			Stages.join(next.handle().release());
		}
		finally {
			factory.destroy();
		}
	}

	private List<String> javaCommand(RedisTestServer redis) {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElseThrow());
		command.addAll(List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"));
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(RedisLockHolder.class.getName());
		command.addAll(List.of(redis.host(), Integer.toString(redis.port()), KEY, Long.toString(TTL.toMillis())));
		return command;
	}

	private static Optional<String> acquiredLine(Path output) {
		return read(output).lines().filter((line) -> line.startsWith("acquired ")).findFirst();
	}

	private static String read(Path output) {
		try {
			return Files.readString(output, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

}
