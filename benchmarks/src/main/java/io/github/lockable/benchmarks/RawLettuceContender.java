package io.github.lockable.benchmarks;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import io.github.lockable.store.LockTokens;

import org.springframework.lang.Nullable;

/**
 * The floor: the two round trips Lockable's Redis store sends for a lock nobody asks a
 * fencing token of (the plain {@code SET key token NX PX ttl}, and its release script, a
 * compare-and-delete by EVALSHA), written straight on one Lettuce connection with keys
 * encoded once per thread, and nothing else. The caller waits on the asynchronous API's future, which
 * under 16 threads costs Redis less CPU per command than Lettuce's synchronous API (more
 * commands per socket read, measured), so the floor is the cheaper of the two.
 * <p>
 * The floor's client takes the client options of the application's connection factory,
 * which Lockable's store, Spring Integration and ShedLock use: Spring Boot enables
 * Lettuce's {@code TimeoutOptions}, a timeout task for every command. So the floor and
 * those libraries differ only in their own code. A second instance with Lettuce's default
 * options shows what those timeouts cost.
 */
final class RawLettuceContender implements Contender {

	private final RedisClient client;

	private final StatefulRedisConnection<byte[], byte[]> connection;

	private final RedisAsyncCommands<byte[], byte[]> commands;

	private final String releaseSha;

	private final SetArgs acquire;

	private final String name;

	/**
	 * Connects a client of its own.
	 * @param url the server
	 * @param options the client options, or {@code null} for Lettuce's defaults
	 * @param ttl the locks' TTL
	 * @param name how the results name it
	 */
	RawLettuceContender(String url, @Nullable ClientOptions options, Duration ttl, String name) {
		this.name = name;
		this.client = RedisClient.create(RedisURI.create(url));
		if (options != null) {
			this.client.setOptions(options);
		}
		this.connection = this.client.connect(ByteArrayCodec.INSTANCE);
		this.commands = this.connection.async();
		RedisCommands<byte[], byte[]> sync = this.connection.sync();
		this.releaseSha = sync.scriptLoad(RedisStoreBenchmark.RELEASE.getBytes(StandardCharsets.UTF_8));
		this.acquire = SetArgs.Builder.nx().px(ttl.toMillis());
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Attempt on(String key, int thread) {
		byte[][] releaseKeys = { key.getBytes(StandardCharsets.UTF_8) };
		return (section) -> {
			byte[] token = LockTokens.next().getBytes(StandardCharsets.US_ASCII);
			if (this.commands.set(releaseKeys[0], token, this.acquire).get() == null) {
				return false;
			}
			section.run();
			this.commands.<Long>evalsha(this.releaseSha, ScriptOutputType.INTEGER, releaseKeys, token).get();
			return true;
		};
	}

	/**
	 * The keys of the acquire script: the lock, and a fencing counter of its own (the store
	 * picks one counter per cluster slot; on one server either is one INCR).
	 * @param key the lock key
	 * @return the lock key and the counter key, encoded
	 */
	static byte[][] acquireKeys(String key) {
		return new byte[][] { key.getBytes(StandardCharsets.UTF_8),
				("lockable:fence:{" + key + "}").getBytes(StandardCharsets.UTF_8) };
	}

	/**
	 * Checks that the copy of the store's release script is still what the store sends:
	 * flushes the server's script cache, lets the store run one lock cycle (it loads its
	 * script by EVAL when EVALSHA answers NOSCRIPT), then asks whether the copy's digest is
	 * known.
	 * @param admin commands on the benchmark's server
	 * @param storeCycle one acquire and release through the store
	 * @throws IllegalStateException when a copy differs from the store's script
	 */
	static void verifyScripts(RedisCommands<String, String> admin, Runnable storeCycle) {
		admin.scriptFlush();
		storeCycle.run();
		List<Boolean> known = admin.scriptExists(sha1(RedisStoreBenchmark.RELEASE));
		if (known.contains(Boolean.FALSE)) {
			throw new IllegalStateException("The raw Lettuce copy of the store's release script is out of date "
					+ "(known to the server: " + known + "): update RedisStoreBenchmark");
		}
	}

	private static String sha1(String script) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8)));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
