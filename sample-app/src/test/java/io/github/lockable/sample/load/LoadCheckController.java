package io.github.lockable.sample.load;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockContext;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * A locked handler whose checks live outside every JVM, in Redis under keys that are no
 * locks, so that they span all instances of the sample: the {@code load-check} profile adds
 * it (test sources only). {@link LoadCheckKeys} names the keys; the load test reads them.
 * <p>
 * Per lock key, inside the lock:
 * <ul>
 * <li>an occupancy counter, INCR on entry and DECR on exit: an INCR that answers more than 1
 * means two holders at once, counted as an overlap;</li>
 * <li>a lost-update counter, read, a pause of 0.2 to 1 ms, written back plus one: two
 * holders at once lose an increment, so its final value falls short of the successes;</li>
 * <li>the last fencing token: a holder whose token is not greater than the one before it
 * counts a stale fence.</li>
 * </ul>
 */
@RestController
@Profile("load-check")
class LoadCheckController {

	private final ValueOperations<String, String> redis;

	private final LoadCheckKeys keys;

	LoadCheckController(StringRedisTemplate redis, @Value("${load-check.run}") UUID run) {
		this.redis = redis.opsForValue();
		this.keys = new LoadCheckKeys(run);
	}

	@PostMapping("/load-check/{slot}")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	@Lockable(resolver = "loadCheckSlot", ttl = "30s", conflictPolicy = ConflictPolicy.CONFLICT)
	void check(@PathVariable int slot) {
		long fencingToken = LockContext.current().orElseThrow().fencingToken();
		String occupancy = this.keys.occupancy(slot);
		Long holders = this.redis.increment(occupancy);
		try {
			if (holders == null || holders != 1) {
				this.redis.increment(this.keys.overlaps(slot));
			}
			List<String> before = this.redis.multiGet(List.of(this.keys.updates(slot), this.keys.fence(slot)));
			long updates = parse(before.get(0));
			if (fencingToken <= parse(before.get(1))) {
				this.redis.increment(this.keys.staleFences(slot));
			}
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(200_000, 1_000_000));
			this.redis.multiSet(Map.of(this.keys.updates(slot), Long.toString(updates + 1), this.keys.fence(slot),
					Long.toString(fencingToken)));
		}
		finally {
			this.redis.decrement(occupancy);
		}
	}

	private static long parse(String value) {
		return (value != null) ? Long.parseLong(value) : 0;
	}

	/**
	 * One lock per slot, {@code load-check:<slot>}; a slot outside the range is refused.
	 */
	@Bean
	static LockKeyResolver loadCheckSlot() {
		return (invocation) -> {
			int slot = invocation.argument("slot", Integer.class);
			if (slot < 0 || slot >= LoadCheckKeys.SLOTS) {
				throw new InvalidLockKeyException("No such load-check slot");
			}
			return LoadCheckKeys.lockKey(slot);
		};
	}

	/**
	 * Tells the starting test where this instance listens ({@code --server.port=0}).
	 */
	@EventListener(ApplicationReadyEvent.class)
	void ready(ApplicationReadyEvent event) {
		Environment environment = event.getApplicationContext().getEnvironment();
		System.out.println(LoadCheckKeys.READY + environment.getRequiredProperty("local.server.port"));
	}

}
