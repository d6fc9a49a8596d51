package io.github.lockable.sample.load;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import io.github.lockable.store.jdbc.JdbcLockStoreSchema;
import io.github.lockable.test.jdbc.PostgresTestServer;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * {@link MutualExclusionUnderLoad} with the instances locking in the JDBC store on the test
 * harness's PostgreSQL ({@code lockable.store=jdbc} on the sample's one {@code DataSource});
 * the checks' counters stay in the harness's standalone Redis, outside both JVMs. The
 * sample's own schema and data scripts are written for H2 and stay off: the load touches
 * no project.
 */
class TwoInstancesUnderLoadOnPostgresIT extends MutualExclusionUnderLoad {

	private static final String DATABASE = "lockable_sample_load";

	private final RedisTestServer redis = RedisTestServer.shared();

	private final PostgresTestServer postgres = PostgresTestServer.shared();

	private final JdbcTemplate table;

	TwoInstancesUnderLoadOnPostgresIT() {
		this.postgres.createDatabase(DATABASE);
		DriverManagerDataSource dataSource = new DriverManagerDataSource(this.postgres.jdbcUrl(DATABASE),
				PostgresTestServer.USER, "");
		// Created before the instances start, so that their two CREATE TABLE IF NOT EXISTS
		// (initialize-schema=always) find it instead of racing on PostgreSQL's catalog.
		JdbcLockStoreSchema.create(dataSource, "lockable_lock");
		this.table = new JdbcTemplate(dataSource);
	}

	@Override
	protected String topology() {
		return "PostgreSQL (JDBC store; checks in standalone Redis)";
	}

	@Override
	protected List<String> connectionArguments() {
		List<String> arguments = new ArrayList<>();
		arguments.add("--spring.data.redis.host=" + this.redis.host());
		arguments.add("--spring.data.redis.port=" + this.redis.port());
		arguments.add("--lockable.store=jdbc");
		arguments.add("--lockable.jdbc.initialize-schema=always");
		arguments.add("--spring.datasource.url=" + this.postgres.jdbcUrl(DATABASE));
		arguments.add("--spring.datasource.username=" + PostgresTestServer.USER);
		arguments.add("--spring.sql.init.mode=never");
		return arguments;
	}

	@Override
	protected RedisClusterCommands<String, String> redis() {
		return this.redis.commands();
	}

	/** A released row stays (it keeps the key's fencing token), expired. */
	@Override
	protected boolean lockRemains(int slot) {
		return this.table.queryForObject(
				"select count(*) from lockable_lock where lock_key = ? and expires_at > current_timestamp",
				Integer.class, LoadCheckKeys.fullLockKey(slot)) > 0;
	}

}
