package io.github.lockable.sample.load;

import java.util.List;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import io.github.lockable.test.redis.RedisTestServer;

/**
 * {@link MutualExclusionUnderLoad} on the test harness's standalone Redis.
 */
class TwoInstancesUnderLoadIT extends MutualExclusionUnderLoad {

	private final RedisTestServer redis = RedisTestServer.shared();

	@Override
	protected String topology() {
		return "standalone Redis";
	}

	@Override
	protected List<String> connectionArguments() {
		return List.of("--spring.data.redis.host=" + this.redis.host(), "--spring.data.redis.port=" + this.redis.port());
	}

	@Override
	protected RedisClusterCommands<String, String> redis() {
		return this.redis.commands();
	}

}
