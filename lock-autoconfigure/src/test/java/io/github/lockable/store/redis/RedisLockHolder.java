package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A process that takes a Redis lock and holds it until it is killed: the holder of
 * {@link RedisLockHolderKilledTests}. Prints {@code acquired <fencing token>} once it holds
 * the lock, or {@code not acquired} and exits 1.
 */
public final class RedisLockHolder {

	private RedisLockHolder() {
	}

	/**
	 * @param args host, port, lock key, TTL in milliseconds
	 * @throws InterruptedException never: the process waits to be killed
	 */
	public static void main(String[] args) throws InterruptedException {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(args[0], Integer.parseInt(args[1])));
		factory.afterPropertiesSet();
		factory.start();
		RedisLockStore store = new RedisLockStore(factory, Duration.ofSeconds(10));
		AcquireResult result = Stages.join(store.acquire(new LockRequest(args[2], Duration.ofMillis(Long.parseLong(args[3])), true)));
		if (!(result instanceof AcquireResult.Acquired acquired)) {
			System.out.println("not acquired: " + result);
			System.exit(1);
			return;
		}
		System.out.println("acquired " + acquired.handle().lease().fencingToken());
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
