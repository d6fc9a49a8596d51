package io.github.lockable.test.redis;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the harness splits the slots when it creates a cluster without {@code redis-cli}.
 */
class ClusterCreationTests {

	@Test
	void slotsAreSplitAsRedisCliSplitsThem() {
		int[] first = ClusterCreation.slotsOf(0, 3);
		int[] second = ClusterCreation.slotsOf(1, 3);
		int[] third = ClusterCreation.slotsOf(2, 3);
		assertThat(List.of(first[0], first[first.length - 1], second[0], second[second.length - 1], third[0],
				third[third.length - 1])).containsExactly(0, 5460, 5461, 10922, 10923, 16383);
		assertThat(first.length + second.length + third.length).isEqualTo(ClusterCreation.SLOTS);
	}

}
