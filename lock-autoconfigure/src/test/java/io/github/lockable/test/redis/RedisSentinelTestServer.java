package io.github.lockable.test.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.lettuce.core.api.sync.RedisCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A master, one replica and three sentinels watching them as {@value #MASTER_NAME} with a
 * quorum of 2, started from {@link RedisBinaries#server()} on free loopback ports; one
 * per JVM, stopped and deleted when the JVM exits.
 * <p>
 * The sentinels notice a silent master only after {@value #DOWN_AFTER_MILLIS} ms, longer
 * than the pauses of the fault tests, so that those never fail over by accident; tests
 * fail over on purpose with {@link #failover()}, which does not wait for that.
 */
public final class RedisSentinelTestServer implements RedisTopology {

	/** The name the sentinels monitor the master under. */
	public static final String MASTER_NAME = "mymaster";

	private static final int DOWN_AFTER_MILLIS = 10_000;

	private static final Logger logger = LoggerFactory.getLogger(RedisSentinelTestServer.class);

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

	private static RedisSentinelTestServer shared;

	private final Path directory = RedisProcess.temporaryDirectory("lockable-redis-sentinel-");

	private final RedisBinaries.Server server = RedisBinaries.server();

	private final Path binary = this.server.binary();

	/** The master and the replica, by port; which is which changes with failovers. */
	private final Map<Integer, RedisProcess> dataNodes = new LinkedHashMap<>();

	private final List<RedisProcess> sentinels = new ArrayList<>();

	private final NodeConnections connections = new NodeConnections();

	private RedisSentinelTestServer() {
	}

	/**
	 * The deployment shared by every test of this JVM, started on first use.
	 * @return the running deployment, the replica in sync and every sentinel aware of the
	 * others
	 */
	public static synchronized RedisSentinelTestServer shared() {
		if (shared == null) {
			RedisSentinelTestServer sentinel = new RedisSentinelTestServer();
			Runtime.getRuntime().addShutdownHook(new Thread(sentinel::shutdown, "redis-test-sentinel-shutdown"));
			sentinel.start();
			shared = sentinel;
		}
		return shared;
	}

	private void start() {
		int masterPort = startDataNode(List.of());
		startDataNode(List.of("--replicaof", "127.0.0.1", Integer.toString(masterPort)));
		for (int i = 0; i < 3; i++) {
			this.sentinels.add(startSentinel(masterPort));
		}
		awaitStable();
		logger.info("Tests use Redis Sentinel '{}' at {}, master on port {} ({} {}: {})", MASTER_NAME,
				sentinelNodes(), masterPort, this.server.origin(), this.binary, RedisTestServers.version(this));
	}

	private int startDataNode(List<String> extra) {
		return RedisProcess.onFreePort((port) -> {
			List<String> arguments = RedisProcess.serverArguments(port);
			arguments.addAll(List.of("--dir", this.directory.toString()));
			arguments.addAll(extra);
			RedisProcess node = RedisProcess.start(this.binary, this.directory, port, arguments);
			this.dataNodes.put(port, node);
			return node;
		}).port();
	}

	private RedisProcess startSentinel(int masterPort) {
		return RedisProcess.onFreePort((port) -> {
			Path configuration = this.directory.resolve("sentinel-" + port + ".conf");
			String content = """
					port %d
					bind 127.0.0.1
					dir %s
					sentinel monitor %s 127.0.0.1 %d 2
					sentinel down-after-milliseconds %s %d
					sentinel failover-timeout %s 10000
					sentinel parallel-syncs %s 1
					""".formatted(port, this.directory, MASTER_NAME, masterPort, MASTER_NAME, DOWN_AFTER_MILLIS,
					MASTER_NAME, MASTER_NAME);
			try {
				Files.writeString(configuration, content);
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot write " + configuration, ex);
			}
			return RedisProcess.start(this.binary, this.directory, port,
					List.of(configuration.toString(), "--sentinel"));
		});
	}

	/**
	 * Waits until every sentinel names the same master, sees the replica and the two
	 * other sentinels, and the master's replica is in sync.
	 */
	public void awaitStable() {
		RedisTestServers.awaitCondition("sentinels agree and the replica is in sync", READY_TIMEOUT, () -> {
			int master = masterPort();
			for (RedisProcess sentinel : this.sentinels) {
				Map<String, String> state = this.connections.sentinel(sentinel.port()).master(MASTER_NAME);
				if (Integer.parseInt(state.get("port")) != master || !"2".equals(state.get("num-other-sentinels"))
						|| !"1".equals(state.get("num-slaves")) || !"master".equals(state.get("flags"))) {
					return false;
				}
			}
			String replication = this.connections.node(replicaPort()).info("replication");
			return this.connections.node(master).info("replication").contains("role:master")
					&& replication.contains("master_port:" + master)
					&& replication.contains("master_link_status:up");
		});
	}

	/**
	 * The master's port, as the first sentinel names it.
	 * @return the port
	 */
	public int masterPort() {
		InetSocketAddress address = (InetSocketAddress) this.connections.sentinel(this.sentinels.get(0).port())
			.getMasterAddrByName(MASTER_NAME);
		return address.getPort();
	}

	/**
	 * The replica's port: the data node that is not the master.
	 * @return the port
	 */
	public int replicaPort() {
		int master = masterPort();
		return this.dataNodes.keySet().stream().filter((port) -> port != master).findFirst().orElseThrow();
	}

	/**
	 * Asks a sentinel to fail over now ({@code SENTINEL FAILOVER}) and returns at once.
	 * @return the port of the master before the failover
	 */
	public int failover() {
		int before = masterPort();
		this.connections.sentinel(this.sentinels.get(0).port()).failover(MASTER_NAME);
		return before;
	}

	/**
	 * The sentinels as {@code spring.data.redis.sentinel.nodes} takes them.
	 * @return {@code 127.0.0.1:port,...}
	 */
	public String sentinelNodes() {
		return this.sentinels.stream().map((node) -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
	}

	/**
	 * An admin connection to one data node, never routed.
	 * @param port the node's port
	 * @return its commands
	 */
	public RedisCommands<String, String> node(int port) {
		return this.connections.node(port);
	}

	/**
	 * Commands on the current master.
	 */
	@Override
	public RedisCommands<String, String> commands() {
		return this.connections.node(masterPort());
	}

	@Override
	public List<RedisCommands<String, String>> masters() {
		return List.of(commands());
	}

	/**
	 * Registers the sentinels, and waits until the deployment is stable when the
	 * properties are read: a test before may have failed over, and an application that
	 * starts while the sentinels still disagree may connect to the demoted master.
	 */
	@Override
	public void registerProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.sentinel.master", () -> MASTER_NAME);
		registry.add("spring.data.redis.sentinel.nodes", () -> {
			awaitStable();
			return sentinelNodes();
		});
	}

	@Override
	public void pause(Duration duration) {
		if (duration.toMillis() >= DOWN_AFTER_MILLIS) {
			throw new IllegalArgumentException("A pause of " + duration + " would make the sentinels fail over");
		}
		commands().clientPause(duration.toMillis());
	}

	@Override
	public void recover() {
		this.dataNodes.keySet()
			.forEach((port) -> RedisTestServers.awaitPing("127.0.0.1", port, READY_TIMEOUT, () -> true));
		awaitStable();
	}

	private synchronized void shutdown() {
		this.connections.close();
		this.sentinels.forEach(RedisProcess::stop);
		this.dataNodes.values().forEach(RedisProcess::stop);
		RedisProcess.deleteDirectory(this.directory);
	}

	@Override
	public String toString() {
		return "Redis Sentinel '" + MASTER_NAME + "' at " + sentinelNodes();
	}

}
