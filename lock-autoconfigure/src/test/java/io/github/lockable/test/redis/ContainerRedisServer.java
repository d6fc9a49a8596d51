package io.github.lockable.test.redis;

import java.time.Duration;
import java.util.List;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@code redis:7-alpine} container. Its port is published on a fixed loopback port, so a
 * stopped and started container keeps the address clients were configured with.
 */
final class ContainerRedisServer extends RedisTestServer {

	private static final DockerImageName IMAGE = DockerImageName.parse("redis:7-alpine");

	private final GenericContainer<?> container;

	private final int port;

	private volatile boolean running;

	private ContainerRedisServer(GenericContainer<?> container, int port) {
		this.container = container;
		this.port = port;
		this.running = true;
	}

	static boolean isDockerAvailable() {
		return DockerClientFactory.instance().isDockerAvailable();
	}

	@SuppressWarnings("resource")
	static ContainerRedisServer startContainer() {
		int port = RedisTestServers.freeLoopbackPort();
		List<String> command = new java.util.ArrayList<>();
		command.add("redis-server");
		command.add("--save");
		command.add("");
		command.add("--appendonly");
		command.add("no");
		GenericContainer<?> container = new GenericContainer<>(IMAGE).withExposedPorts(6379)
			.withCommand(command.toArray(String[]::new))
			.withCreateContainerCmdModifier((create) -> create.getHostConfig()
				.withPortBindings(new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", port),
						ExposedPort.tcp(6379))));
		container.start();
		RedisTestServers.awaitPing("127.0.0.1", port, Duration.ofSeconds(30), container::isRunning);
		return new ContainerRedisServer(container, port);
	}

	@Override
	public String host() {
		return "127.0.0.1";
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public String description() {
		return "Testcontainers " + IMAGE;
	}

	@Override
	public boolean supportsRestart() {
		return true;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public synchronized void stop() {
		closeAdminConnection();
		this.container.getDockerClient().stopContainerCmd(this.container.getContainerId()).exec();
		this.running = false;
	}

	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.container.getDockerClient().startContainerCmd(this.container.getContainerId()).exec();
		RedisTestServers.awaitPing(host(), this.port, Duration.ofSeconds(30), () -> true);
		this.running = true;
	}

	@Override
	void shutdown() {
		closeAdminConnection();
		this.container.stop();
	}

}
