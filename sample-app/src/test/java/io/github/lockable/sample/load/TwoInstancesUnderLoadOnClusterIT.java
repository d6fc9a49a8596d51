package io.github.lockable.sample.load;

import java.util.List;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import io.github.lockable.test.redis.RedisClusterTestServer;

/**
 * {@link MutualExclusionUnderLoad} on the test harness's 3-master Redis Cluster: the
 * instances connect through {@code spring.data.redis.cluster.nodes}, and the load's keys
 * and the checks' counters spread over every master.
 */
class TwoInstancesUnderLoadOnClusterIT extends MutualExclusionUnderLoad {

	private final RedisClusterTestServer cluster = RedisClusterTestServer.shared();

	@Override
	protected String topology() {
		return "Redis Cluster (3 masters)";
	}

	@Override
	protected List<String> connectionArguments() {
		return List.of("--spring.data.redis.cluster.nodes=" + this.cluster.nodes());
	}

	@Override
	protected RedisClusterCommands<String, String> redis() {
		return this.cluster.commands();
	}

}
