package io.github.lockable.test.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A Redis Cluster of three masters without replicas, started from
 * {@link RedisBinaries#server()} on free loopback ports and created from the client
 * ({@link ClusterCreation}), so without {@code redis-cli}; one per JVM, stopped and
 * deleted when the JVM exits.
 */
public final class RedisClusterTestServer implements RedisTopology {

	private static final Logger logger = LoggerFactory.getLogger(RedisClusterTestServer.class);

	private static final int MASTERS = 3;

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

	private static RedisClusterTestServer shared;

	private final Path directory = RedisProcess.temporaryDirectory("lockable-redis-cluster-");

	private final List<RedisProcess> nodes = new ArrayList<>();

	private final NodeConnections connections = new NodeConnections();

	private RedisClusterClient adminClient;

	private StatefulRedisClusterConnection<String, String> adminConnection;

	private RedisClusterTestServer() {
	}

	/**
	 * The cluster shared by every test of this JVM, started on first use.
	 * @return the running cluster, its state ok on every node
	 */
	public static synchronized RedisClusterTestServer shared() {
		if (shared == null) {
			RedisClusterTestServer cluster = new RedisClusterTestServer();
			Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown, "redis-test-cluster-shutdown"));
			cluster.start();
			shared = cluster;
		}
		return shared;
	}

	private void start() {
		RedisBinaries.Server server = RedisBinaries.server();
		Path binary = server.binary();
		for (int i = 0; i < MASTERS; i++) {
			this.nodes.add(startNode(binary));
		}
		ClusterCreation.create(this.connections, ports());
		awaitStable();
		this.adminClient = RedisClusterClient.create("redis://127.0.0.1:" + this.nodes.get(0).port());
		this.adminConnection = this.adminClient.connect();
		logger.info("Tests use a Redis Cluster of {} masters at {} ({} {}: {})", MASTERS, nodes(), server.origin(),
				binary, RedisTestServers.version(this));
	}

	private RedisProcess startNode(Path binary) {
		return RedisProcess.onFreePort((port) -> {
			List<String> arguments = RedisProcess.serverArguments(port);
			arguments.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf",
					"--cluster-node-timeout", "5000", "--dir", this.directory.toString()));
			return RedisProcess.start(binary, this.directory, port, arguments);
		});
	}

	/**
	 * Waits until every node says {@code cluster_state:ok}, knows every other node and
	 * agrees with the others on who serves which slot.
	 */
	public void awaitStable() {
		RedisTestServers.awaitCondition("cluster state ok on every node", READY_TIMEOUT, () -> {
			List<String> slotMaps = new ArrayList<>();
			for (RedisProcess node : this.nodes) {
				String info = this.connections.node(node.port()).clusterInfo();
				if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + MASTERS)) {
					return false;
				}
				slotMaps.add(slotMap(node.port()));
			}
			return slotMaps.stream().distinct().count() == 1;
		});
	}

	private String slotMap(int port) {
		return ClusterPartitionParser.parse(this.connections.node(port).clusterNodes())
			.stream()
			.sorted((a, b) -> a.getNodeId().compareTo(b.getNodeId()))
			.map((node) -> node.getNodeId() + "=" + node.getSlots())
			.collect(Collectors.joining(";"));
	}

	/**
	 * The nodes as {@code spring.data.redis.cluster.nodes} takes them.
	 * @return {@code 127.0.0.1:port,...}
	 */
	public String nodes() {
		return this.nodes.stream().map((node) -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
	}

	/**
	 * The ports of the masters.
	 * @return the ports, in the order the nodes were started
	 */
	public List<Integer> ports() {
		return this.nodes.stream().map(RedisProcess::port).toList();
	}

	/**
	 * The port of the master serving a key's slot now, as the first node sees it.
	 * @param key a key
	 * @return the master's port
	 */
	public int masterPortOf(String key) {
		int slot = SlotHash.getSlot(key);
		for (RedisClusterNode node : ClusterPartitionParser.parse(this.connections.node(ports().get(0)).clusterNodes())) {
			if (node.hasSlot(slot)) {
				return node.getUri().getPort();
			}
		}
		throw new IllegalStateException("No node serves slot " + slot);
	}

	/**
	 * The slots a master serves now, as it sees itself.
	 * @param port the master's port
	 * @return its slots
	 */
	public List<Integer> slotsOf(int port) {
		String myId = this.connections.node(port).clusterMyId();
		return ClusterPartitionParser.parse(this.connections.node(port).clusterNodes())
			.stream()
			.filter((node) -> node.getNodeId().equals(myId))
			.flatMap((node) -> node.getSlots().stream())
			.toList();
	}

	/**
	 * Moves slots, with their keys, from one master to another ({@code redis-cli --cluster
	 * reshard}), then waits until the cluster is stable. The one use of {@code redis-cli}:
	 * next to the cluster's {@code redis-server}, else on the {@code PATH}.
	 * @param fromPort the master giving slots
	 * @param toPort the master taking them
	 * @param slots how many slots
	 * @throws IllegalStateException when there is no {@code redis-cli}, saying how to get one
	 */
	public void reshard(int fromPort, int toPort, int slots) {
		Path cli = RedisBinaries.cli();
		if (cli == null) {
			throw new IllegalStateException("Resharding needs redis-cli, next to " + RedisBinaries.server().binary()
					+ " or on the PATH, and embedded-redis has none: install Redis (sudo apt-get install "
					+ "redis-tools, or brew install redis) or set " + RedisTestServers.BIN_VARIABLE
					+ " to the bin/ directory of a Redis build");
		}
		RedisProcess.run(List.of(cli.toString(), "--cluster", "reshard", "127.0.0.1:" + fromPort, "--cluster-from",
				this.connections.node(fromPort).clusterMyId(), "--cluster-to",
				this.connections.node(toPort).clusterMyId(), "--cluster-slots", Integer.toString(slots),
				"--cluster-yes", "--cluster-pipeline", "100"), Duration.ofMinutes(2));
		awaitStable();
	}

	@Override
	public synchronized RedisAdvancedClusterCommands<String, String> commands() {
		return this.adminConnection.sync();
	}

	@Override
	public List<RedisCommands<String, String>> masters() {
		return ports().stream().map(this.connections::node).toList();
	}

	/**
	 * Besides the nodes, turns on Lettuce's adaptive and periodic topology refresh, so that
	 * clients learn of moved slots.
	 */
	@Override
	public void registerProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.cluster.nodes", this::nodes);
		registry.add("spring.data.redis.lettuce.cluster.refresh.adaptive", () -> "true");
		registry.add("spring.data.redis.lettuce.cluster.refresh.period", () -> "2s");
	}

	@Override
	public void pause(Duration duration) {
		masters().forEach((master) -> master.clientPause(duration.toMillis()));
	}

	@Override
	public void recover() {
		this.nodes.forEach((node) -> RedisTestServers.awaitPing("127.0.0.1", node.port(), READY_TIMEOUT, () -> true));
		awaitStable();
	}

	private synchronized void shutdown() {
		if (this.adminConnection != null) {
			this.adminConnection.close();
			this.adminClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		this.connections.close();
		this.nodes.forEach(RedisProcess::stop);
		RedisProcess.deleteDirectory(this.directory);
	}

	@Override
	public String toString() {
		return "Redis Cluster at " + nodes();
	}

}
