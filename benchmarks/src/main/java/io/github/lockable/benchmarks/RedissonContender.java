package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} on a client with Redisson's defaults for one server:
 * {@code tryLock(0, leaseTime, unit)} and {@code unlock()}; a lease time is given, so no
 * watchdog renews the lock.
 */
final class RedissonContender implements Contender, Handoff.WaitingLock {

	private final RedissonClient client;

	private final long leaseMillis;

	RedissonContender(String url, Duration lease) {
		Config config = new Config();
		config.useSingleServer().setAddress(url);
		this.client = Redisson.create(config);
		this.leaseMillis = lease.toMillis();
	}

	@Override
	public String name() {
		return "Redisson RLock";
	}

	@Override
	public Attempt on(String key, int thread) {
		return (section) -> {
			RLock lock = this.client.getLock(key);
			return Contender.runHolding(lock.tryLock(0, this.leaseMillis, TimeUnit.MILLISECONDS), section,
					lock::unlock);
		};
	}

	@Override
	public Runnable tryLock(String key, int thread, Duration maxWait) throws InterruptedException {
		RLock lock = this.client.getLock(key);
		return lock.tryLock(maxWait.toMillis(), this.leaseMillis, TimeUnit.MILLISECONDS) ? lock::unlock : null;
	}

	@Override
	public void close() {
		this.client.shutdown();
	}

}
