package io.github.lockable.test.redis;

import java.util.List;
import java.util.stream.IntStream;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * Makes fresh cluster-enabled nodes one cluster of masters from the client, as
 * {@code redis-cli --cluster create --cluster-replicas 0} does, so that no
 * {@code redis-cli} is needed (the embedded-redis jar has none): a distinct config
 * epoch for each node, each node's share of the 16384 slots, then every node meets the
 * first. Redis 6.2 has no {@code CLUSTER ADDSLOTSRANGE}: the slots go as one
 * {@code CLUSTER ADDSLOTS} with each slot an argument.
 */
final class ClusterCreation {

	static final int SLOTS = 16384;

	private ClusterCreation() {
	}

	/**
	 * Creates the cluster; the caller waits until it is stable.
	 * @param connections admin connections to the nodes
	 * @param ports the nodes, none of which knows another or serves a slot yet
	 */
	static void create(NodeConnections connections, List<Integer> ports) {
		for (int i = 0; i < ports.size(); i++) {
			RedisCommands<String, String> node = connections.node(ports.get(i));
			// Distinct epochs up front, as redis-cli sets them: otherwise the nodes first
			// resolve the collision of their equal epochs among themselves.
			node.clusterSetConfigEpoch(i + 1);
			node.clusterAddSlots(slotsOf(i, ports.size()));
		}
		RedisCommands<String, String> first = connections.node(ports.get(0));
		for (int port : ports.subList(1, ports.size())) {
			first.clusterMeet("127.0.0.1", port);
		}
	}

	/**
	 * The slots of one master, as {@code redis-cli} splits them: 0-5460, 5461-10922 and
	 * 10923-16383 for three.
	 * @param index the master's index
	 * @param masters how many masters there are
	 * @return its slots
	 */
	static int[] slotsOf(int index, int masters) {
		double perMaster = SLOTS / (double) masters;
		int first = (index == 0) ? 0 : (int) Math.round(index * perMaster - 1) + 1;
		int last = (index == masters - 1) ? SLOTS - 1 : (int) Math.round((index + 1) * perMaster - 1);
		return IntStream.rangeClosed(first, last).toArray();
	}

}
