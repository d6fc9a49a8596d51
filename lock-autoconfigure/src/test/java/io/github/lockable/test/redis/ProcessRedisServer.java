package io.github.lockable.test.redis;

import java.nio.file.Path;
import java.util.List;

/**
 * A {@code redis-server} process the harness starts on a free loopback port, without
 * persistence, and stops when the JVM exits.
 */
final class ProcessRedisServer extends RedisTestServer {

	private final Path binary;

	private final String origin;

	private final Path directory;

	private int port;

	private RedisProcess process;

	ProcessRedisServer(Path binary, String origin) {
		this.binary = binary;
		this.origin = origin;
		this.directory = RedisProcess.temporaryDirectory("lockable-redis-");
	}

	@Override
	public String host() {
		return "127.0.0.1";
	}

	@Override
	public synchronized int port() {
		return this.port;
	}

	@Override
	public String description() {
		return this.origin + " (" + this.binary + ")";
	}

	@Override
	public boolean supportsRestart() {
		return true;
	}

	@Override
	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	@Override
	public synchronized void start() {
		if (isRunning()) {
			return;
		}
		RuntimeException failure = null;
		// A fresh port can be taken between probing and binding: try a few.
		for (int attempt = 0; attempt < 3; attempt++) {
			int candidate = (this.port != 0 && attempt == 0) ? this.port : RedisTestServers.freeLoopbackPort();
			try {
				launch(candidate);
				this.port = candidate;
				return;
			}
			catch (RuntimeException ex) {
				failure = ex;
				if (this.port != 0) {
					// Restarts keep their port: clients are configured with it.
					break;
				}
			}
		}
		throw failure;
	}

	private void launch(int port) {
		List<String> arguments = RedisProcess.serverArguments(port);
		arguments.add("--dir");
		arguments.add(this.directory.toString());
		this.process = RedisProcess.start(this.binary, this.directory, port, arguments);
	}

	@Override
	public synchronized void stop() {
		closeAdminConnection();
		if (this.process == null) {
			return;
		}
		this.process.stop();
		this.process = null;
	}

	@Override
	void shutdown() {
		stop();
		RedisProcess.deleteDirectory(this.directory);
	}

}
