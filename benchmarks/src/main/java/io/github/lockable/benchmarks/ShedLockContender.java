package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.Optional;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * ShedLock's Redis provider as its documentation builds it, on the application's
 * connection factory: {@code lock(LockConfiguration)} with {@code lockAtLeastFor} zero,
 * then {@code unlock()}.
 */
final class ShedLockContender implements Contender {

	private final LockProvider provider;

	private final Duration lockAtMostFor;

	ShedLockContender(RedisConnectionFactory connectionFactory, Duration lockAtMostFor) {
		this.provider = new RedisLockProvider(connectionFactory, "bench");
		this.lockAtMostFor = lockAtMostFor;
	}

	@Override
	public String name() {
		return "ShedLock RedisLockProvider";
	}

	@Override
	public Attempt on(String key, int thread) {
		return (section) -> {
			Optional<SimpleLock> lock = this.provider
				.lock(new LockConfiguration(ClockProvider.now(), key, this.lockAtMostFor, Duration.ZERO));
			return Contender.runHolding(lock.isPresent(), section, () -> lock.get().unlock());
		};
	}

}
