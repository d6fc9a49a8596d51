package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;

import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.codec.CRC16;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import io.github.lockable.core.LockableCore;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.HostileKeys;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What "inside the prefix" means on Redis Cluster: an accepted key has no hash tag, so its
 * slot is that of the whole key, prefix included; its wake-up channel, whose hash tag is
 * the whole key, and its fencing counter are in that same slot. A part with a brace is
 * refused before it gets here: {@code lock:a}b} would give its channel the tag
 * {@code lock:a}, another slot, and a part {@code {x}} would choose its own slot.
 */
class RedisKeySlotPropertyTests {

	private final LockableCore keys = LockableCore.builder(new MemoryLockStore()).build();

	@Provide
	Arbitrary<String> parts() {
		return HostileKeys.acceptedParts().filter((part) -> part.length() <= 200);
	}

	@Property(tries = 2_000)
	void lockItsChannelAndItsCounterShareTheSlotOfTheWholeKey(@ForAll("parts") String part) {
		byte[] key = this.keys.fullKey(part).getBytes(StandardCharsets.UTF_8);
		int slot = SlotHash.getSlot(key);
		assertThat(slot).isEqualTo(CRC16.crc16(key) % SlotHash.SLOT_COUNT);
		assertThat(SlotHash.getSlot(RedisLockNotifications.channel(this.keys.fullKey(part)))).isEqualTo(slot);
		assertThat(SlotHash.getSlot(FencingCounters.counterKey(key))).isEqualTo(slot);
		assertThat(new String(FencingCounters.counterKey(key), StandardCharsets.US_ASCII))
			.matches("lockable:fence:\\{[0-9A-Za-z]{1,3}\\}")
			.doesNotStartWith("lock:");
	}

}
