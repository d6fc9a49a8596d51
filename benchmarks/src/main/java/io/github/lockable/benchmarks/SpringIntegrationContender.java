package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Spring Integration's {@link RedisLockRegistry} on the application's connection factory:
 * {@code obtain(key)}, then {@code tryLock()} and {@code unlock()}.
 * <p>
 * A registry first takes a JVM-local {@code ReentrantLock} per key, and only its holder
 * goes to Redis; all registries of one JVM share nothing. So with one registry, threads
 * contending for one key mostly meet in that local lock, and only one of them at a time
 * reaches Redis. {@link #perThread} gives every thread a registry of its own, as if each
 * were an application instance, so that contention goes through Redis as between
 * instances.
 */
final class SpringIntegrationContender implements Contender, Handoff.WaitingLock {

	private final String name;

	private final List<RedisLockRegistry> registries = new ArrayList<>();

	private SpringIntegrationContender(String name, RedisConnectionFactory connectionFactory, Duration expireAfter,
			int registries, RedisLockType type) {
		this.name = name;
		for (int i = 0; i < registries; i++) {
			RedisLockRegistry registry = new RedisLockRegistry(connectionFactory, "bench-si", expireAfter.toMillis());
			registry.setRedisLockType(type);
			this.registries.add(registry);
		}
	}

	/**
	 * One registry for every thread, as one application instance has.
	 */
	static SpringIntegrationContender shared(RedisConnectionFactory connectionFactory, Duration expireAfter) {
		return new SpringIntegrationContender("Spring Integration RedisLockRegistry", connectionFactory,
				expireAfter, 1, RedisLockType.SPIN_LOCK);
	}

	/**
	 * One registry per thread, each thread an application instance of its own.
	 */
	static SpringIntegrationContender perThread(RedisConnectionFactory connectionFactory, Duration expireAfter,
			int threads, RedisLockType type) {
		return new SpringIntegrationContender("Spring Integration RedisLockRegistry, a registry per thread, "
				+ type.name(), connectionFactory, expireAfter, threads, type);
	}

	@Override
	public String name() {
		return this.name;
	}

	private RedisLockRegistry registry(int thread) {
		return this.registries.get(thread % this.registries.size());
	}

	@Override
	public Attempt on(String key, int thread) {
		RedisLockRegistry registry = registry(thread);
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
		this.registries.forEach(RedisLockRegistry::destroy);
	}

}
