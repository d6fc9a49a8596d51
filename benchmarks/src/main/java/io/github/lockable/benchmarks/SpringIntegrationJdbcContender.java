package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import javax.sql.DataSource;

import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@link JdbcLockRegistry} over a {@link DefaultLockRepository}, as
 * its reference guide wires them: {@code obtain(key)}, then {@code tryLock()} and
 * {@code unlock()}; a waiting {@code tryLock(time, unit)} polls the table with the
 * registry's idle sleep between tries (100 ms by default). Its table, {@code INT_LOCK}, is
 * created from the {@code schema-postgresql.sql} of its jar.
 * <p>
 * As with the Redis registry, a registry first takes a JVM-local lock per key, so that
 * threads of one registry contending for a key meet in the JVM; {@link #perThread} gives
 * every thread a registry and a repository (a client id) of its own, each thread an
 * application instance, so that contention goes through the database.
 */
final class SpringIntegrationJdbcContender implements Contender, Handoff.WaitingLock {

	private final String name;

	private final List<DefaultLockRepository> repositories = new ArrayList<>();

	private final List<JdbcLockRegistry> registries = new ArrayList<>();

	private SpringIntegrationJdbcContender(String name, DataSource dataSource, Duration ttl, int registries) {
		this.name = name;
		DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
		for (int i = 0; i < registries; i++) {
			DefaultLockRepository repository = new DefaultLockRepository(dataSource);
			repository.setTimeToLive((int) ttl.toMillis());
			repository.setTransactionManager(transactions);
			repository.afterPropertiesSet();
			repository.afterSingletonsInstantiated();
			repository.start();
			this.repositories.add(repository);
			this.registries.add(new JdbcLockRegistry(repository));
		}
	}

	/** Creates {@code INT_LOCK} as the jar's PostgreSQL script does, dropping an old one. */
	static void createTable(DataSource dataSource) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("DROP TABLE IF EXISTS INT_LOCK");
		jdbc.execute("CREATE TABLE INT_LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION VARCHAR(100) NOT NULL,"
				+ " CLIENT_ID CHAR(36), CREATED_DATE TIMESTAMP NOT NULL,"
				+ " constraint INT_LOCK_PK primary key (LOCK_KEY, REGION))");
	}

	/** One registry for every thread, as one application instance has. */
	static SpringIntegrationJdbcContender shared(DataSource dataSource, Duration ttl) {
		return new SpringIntegrationJdbcContender("Spring Integration JdbcLockRegistry", dataSource, ttl, 1);
	}

	/** One registry per thread, each thread an application instance of its own. */
	static SpringIntegrationJdbcContender perThread(DataSource dataSource, Duration ttl, int threads) {
		return new SpringIntegrationJdbcContender("Spring Integration JdbcLockRegistry, a registry per thread",
				dataSource, ttl, threads);
	}

	@Override
	public String name() {
		return this.name;
	}

	private JdbcLockRegistry registry(int thread) {
		return this.registries.get(thread % this.registries.size());
	}

	@Override
	public Attempt on(String key, int thread) {
		JdbcLockRegistry registry = registry(thread);
		return (section) -> {
			Lock lock = registry.obtain(key);
			return Contender.runHolding(lock.tryLock(), section, lock::unlock);
		};
	}

	@Override
	public Runnable tryLock(String key, int thread, Duration maxWait) throws InterruptedException {
		Lock lock = registry(thread).obtain(key);
		return lock.tryLock(maxWait.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
	}

	@Override
	public void close() {
		this.repositories.forEach(DefaultLockRepository::close);
	}

}
