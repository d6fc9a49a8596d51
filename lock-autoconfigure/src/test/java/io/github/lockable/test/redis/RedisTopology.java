package io.github.lockable.test.redis;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A Redis deployment tests can point an application at: one server
 * ({@link RedisTestServer}), a Redis Cluster ({@link RedisClusterTestServer}) or a master
 * with a replica behind Sentinel ({@link RedisSentinelTestServer}).
 */
public interface RedisTopology {

	/**
	 * Commands of the harness's own, routed by key like an application's (on a cluster, to
	 * the master of the key's slot), for assertions and setup.
	 * @return the admin commands
	 */
	RedisClusterCommands<String, String> commands();

	/**
	 * One admin connection to each master, to ask each what it holds.
	 * @return the masters' commands
	 */
	List<RedisCommands<String, String>> masters();

	/**
	 * Points a Spring Boot test at this deployment through {@code spring.data.redis.*}.
	 * @param registry the test's dynamic properties
	 */
	void registerProperties(DynamicPropertyRegistry registry);

	/**
	 * Makes every master stop answering for the given time ({@code CLIENT PAUSE ms ALL}).
	 * @param duration how long the masters stay silent
	 */
	void pause(Duration duration);

	/**
	 * Brings the deployment back to a usable state after a test that injected a fault.
	 */
	void recover();

}
