package io.github.lockable.historycheck;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One worker JVM: locks one of three keys at a time through {@link LockTemplate}, and while
 * it holds the lock writes to the fenced resource with its fencing token, recording every
 * step in the history, until the run asks it to stop. A control worker takes no lock.
 * <p>
 * Arguments: {@code id lockHost lockPort resourcePort ttlMillis redisTimeoutMillis locked|control
 * holdMillis};
 * a lock host of {@code sentinel=host:port,...} names the sentinels of {@value #SENTINEL_MASTER}
 * instead, the lock port then unused.
 */
public final class HistoryWorker {

	static final String SENTINEL_PREFIX = "sentinel=";

	static final String SENTINEL_MASTER = "mymaster";

	static final List<String> KEYS = List.of("k1", "k2", "k3");

	private static final Duration LONGEST_RUN = Duration.ofMinutes(10);

	private final String id;

	private final FencedResource resource;

	private final Duration ttl;

	private final Duration hold;

	private HistoryWorker(String id, FencedResource resource, Duration ttl, Duration hold) {
		this.id = id;
		this.resource = resource;
		this.ttl = ttl;
		this.hold = hold;
	}

	public static void main(String[] args) throws InterruptedException {
		String id = args[0];
		Duration ttl = Duration.ofMillis(Long.parseLong(args[4]));
		boolean locked = "locked".equals(args[6]);
		try (FencedResource resource = new FencedResource("127.0.0.1", Integer.parseInt(args[3]))) {
			HistoryWorker worker = new HistoryWorker(id, resource, ttl,
					Duration.ofMillis(Long.parseLong(args[7])));
			if (!locked) {
				worker.runWithoutLocks();
				return;
			}
			try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WorkerApplication.class)
				.web(WebApplicationType.NONE)
				.bannerMode(Banner.Mode.OFF)
				.logStartupInfo(false)
				.properties("lockable.store=redis", "spring.data.redis.timeout=" + args[5] + "ms",
						"lockable.redis.lock-delay=" + args[8] + "ms", "logging.level.root=WARN")
				.properties(lockRedis(args[1], args[2]))
				.run()) {
				worker.runWithLocks(context.getBean(LockTemplate.class));
			}
		}
		System.exit(0);
	}

	private static String[] lockRedis(String host, String port) {
		if (host.startsWith(SENTINEL_PREFIX)) {
			return new String[] { "spring.data.redis.sentinel.master=" + SENTINEL_MASTER,
					"spring.data.redis.sentinel.nodes=" + host.substring(SENTINEL_PREFIX.length()) };
		}
		return new String[] { "spring.data.redis.host=" + host, "spring.data.redis.port=" + port };
	}

	private void runWithLocks(LockTemplate locks) throws InterruptedException {
		this.resource.record(this.id, "ready", "", 0, "");
		long deadline = System.nanoTime() + LONGEST_RUN.toNanos();
		while (!this.resource.stopRequested() && System.nanoTime() < deadline) {
			String key = randomKey();
			String ttlMillis = Long.toString(this.ttl.toMillis());
			this.resource.record(this.id, "request", key, 0, ttlMillis);
			Optional<HeldLock> lock;
			try {
				lock = locks.tryLock(key, this.ttl);
			}
			catch (RuntimeException ex) {
				this.resource.record(this.id, "failed", key, 0, ex.getClass().getSimpleName());
				pace();
				continue;
			}
			if (lock.isEmpty()) {
				this.resource.record(this.id, "refused", key, 0, "");
				pace();
				continue;
			}
			hold(key, lock.get());
			pace();
		}
	}

	private void hold(String key, HeldLock lock) throws InterruptedException {
		long token = lock.fencingToken();
		this.resource.record(this.id, "grant", key, token, Long.toString(this.ttl.toMillis()));
		// The work a holder does: a paused holder wakes up here, past its lease.
		Thread.sleep(this.hold.toMillis());
		this.resource.record(this.id, "check", key, token, "");
		this.resource.record(this.id, "held", key, token, Boolean.toString(lock.isHeld()));
		this.resource.write(this.id, key, token);
		this.resource.record(this.id, "release", key, token, "");
		try {
			lock.close();
			this.resource.record(this.id, "released", key, token, "");
		}
		catch (RuntimeException ex) {
			this.resource.record(this.id, "release-failed", key, token, ex.getClass().getSimpleName());
		}
	}

	/**
	 * The negative control: every worker believes it holds the key, with a token of its own
	 * clock, so holders overlap and the resource refuses updates the workers believe made.
	 */
	private void runWithoutLocks() throws InterruptedException {
		this.resource.record(this.id, "ready", "", 0, "");
		long deadline = System.nanoTime() + LONGEST_RUN.toNanos();
		long sequence = 0;
		while (!this.resource.stopRequested() && System.nanoTime() < deadline) {
			String key = randomKey();
			long token = System.currentTimeMillis() * 1000 + (sequence++ % 1000);
			this.resource.record(this.id, "request", key, 0, Long.toString(this.ttl.toMillis()));
			this.resource.record(this.id, "grant", key, token, Long.toString(this.ttl.toMillis()));
			Thread.sleep(this.hold.toMillis());
			this.resource.write(this.id, key, token);
			this.resource.record(this.id, "release", key, token, "");
			this.resource.record(this.id, "released", key, token, "");
			pace();
		}
	}

	private static String randomKey() {
		return KEYS.get(ThreadLocalRandom.current().nextInt(KEYS.size()));
	}

	// A load loop paces itself; nothing waits for a condition here.
	private static void pace() throws InterruptedException {
		Thread.sleep(ThreadLocalRandom.current().nextLong(10, 40));
	}

	/**
	 * The worker's application: the auto-configuration and a Redis connection, nothing else.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WorkerApplication {

	}

}
