package io.github.lockable.store.redis;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the store reads what server it reached and whether it has sharded pub/sub, from the
 * answers of the servers it is tested on.
 */
class RedisServerFeaturesTests {

	private static final List<Object> KNOWN = List.of(List.of("spublish", -3L));

	private static final List<Object> UNKNOWN = Arrays.asList((Object) null);

	@Test
	void redis62HasNoShardedPubSub() {
		RedisServerFeatures server = RedisServerFeatures.of(info("redis_version:6.2.16"), UNKNOWN);
		assertThat(server).isEqualTo(new RedisServerFeatures("redis", "6.2.16", false));
		assertThat(server.toString()).isEqualTo("redis 6.2.16, classic pub/sub (PUBLISH), as it has no SPUBLISH");
	}

	@Test
	void redis7HasShardedPubSub() {
		assertThat(RedisServerFeatures.of(info("redis_version:7.0.15"), KNOWN))
			.isEqualTo(new RedisServerFeatures("redis", "7.0.15", true));
	}

	@Test
	void valkeyIsNamedWithItsOwnVersionNotItsRedisCompatibleOne() {
		RedisServerFeatures server = RedisServerFeatures
			.of(info("redis_version:7.2.4", "server_name:valkey", "valkey_version:8.0.1"), KNOWN);
		assertThat(server).isEqualTo(new RedisServerFeatures("valkey", "8.0.1", true));
		assertThat(server.toString()).isEqualTo("valkey 8.0.1, sharded pub/sub (SPUBLISH)");
	}

	@Test
	void aServerThatRenamedSpublishAwayPublishesTheClassicWay() {
		assertThat(RedisServerFeatures.of(info("redis_version:7.2.6"), UNKNOWN).sharded()).isFalse();
	}

	@Test
	void theVersionDecidesWhereCommandInfoIsRefused() {
		assertThat(RedisServerFeatures.of(info("redis_version:6.2.16"), null).sharded()).isFalse();
		assertThat(RedisServerFeatures.of(info("redis_version:7.0.15"), null).sharded()).isTrue();
		assertThat(RedisServerFeatures.of(info("redis_version:7.2.4", "server_name:valkey", "valkey_version:8.0.1"),
				null))
			.isEqualTo(new RedisServerFeatures("valkey", "8.0.1", true));
	}

	@Test
	void aServerThatAnswersNeitherIsAssumedCurrent() {
		assertThat(RedisServerFeatures.of(null, null)).isEqualTo(RedisServerFeatures.ASSUMED);
		assertThat(RedisServerFeatures.of(null, UNKNOWN)).isEqualTo(new RedisServerFeatures("redis", "unknown", false));
	}

	@Test
	void onlyTheWakingScriptsHaveAClassicSibling() {
		RedisServerFeatures classic = new RedisServerFeatures("redis", "6.2.16", false);
		RedisServerFeatures sharded = new RedisServerFeatures("redis", "7.0.15", true);
		for (LockScript waking : List.of(LockScript.RELEASE, LockScript.FORCE_RELEASE)) {
			assertThat(waking.on(sharded)).isSameAs(waking);
			assertThat(source(waking)).contains("SPUBLISH").doesNotContain("'PUBLISH'");
			assertThat(source(waking.on(classic))).contains("'PUBLISH'").doesNotContain("SPUBLISH");
		}
		for (LockScript other : List.of(LockScript.ACQUIRE, LockScript.DELAYED_ACQUIRE, LockScript.EXTEND,
				LockScript.FENCE)) {
			assertThat(other.on(classic)).isSameAs(other);
		}
	}

	private static String source(LockScript script) {
		return new String(script.source(), java.nio.charset.StandardCharsets.UTF_8);
	}

	private static String info(String... fields) {
		return "# Server\r\n" + String.join("\r\n", fields) + "\r\nredis_mode:standalone\r\nos:Linux\r\n";
	}

}
