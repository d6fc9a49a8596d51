package io.github.lockable.test.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.lang.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A real Redis server for tests, one per JVM, found or started the first time a test asks.
 * <p>
 * First match wins: {@code LOCKABLE_TEST_REDIS_URL} when set; the {@code redis-server} of
 * {@code LOCKABLE_TEST_REDIS_BIN} when set; a Testcontainers {@code redis:7-alpine}
 * container when a Docker engine answers; {@code redis-server} from the {@code PATH},
 * started on a free loopback port; the Redis binary inside the test-scoped
 * {@code com.github.codemonstur:embedded-redis} jar. When none works the first test fails
 * and says how to get Redis: tests are never skipped for want of a server. Servers the
 * harness starts for a test of its own, and the Cluster and Sentinel nodes, come from
 * {@code LOCKABLE_TEST_REDIS_BIN}, the {@code PATH} or embedded-redis only.
 * <p>
 * Fault injection: {@link #pause(Duration)} everywhere; {@link #stop()} and
 * {@link #start()} where the harness owns the server.
 */
public abstract class RedisTestServer implements RedisTopology, AutoCloseable {

	private static RedisTestServer shared;

	private RedisClient adminClient;

	private StatefulRedisConnection<String, String> adminConnection;

	/**
	 * The server shared by every test of this JVM, started on first use and stopped when
	 * the JVM exits.
	 * @return the running server
	 */
	public static synchronized RedisTestServer shared() {
		if (shared == null) {
			shared = RedisTestServers.startFirstAvailable();
			Runtime.getRuntime().addShutdownHook(new Thread(shared::shutdown, "redis-test-server-shutdown"));
		}
		return shared;
	}

	/**
	 * Starts to describe a {@code redis-server} process of the test's own, apart from the
	 * shared server, with extra configuration such as {@code requirepass} or ACL users.
	 * Only a server the harness can start itself qualifies ({@code LOCKABLE_TEST_REDIS_BIN}'s
	 * {@code redis-server}, the {@code PATH}'s or embedded-redis's binary); the caller
	 * {@link #close() closes} it.
	 * @return a builder
	 */
	public static Builder process() {
		return new Builder();
	}

	/**
	 * Host name or address of the server.
	 * @return the host
	 */
	public abstract String host();

	/**
	 * Port of the server.
	 * @return the port
	 */
	public abstract int port();

	/**
	 * Where the server came from, for logs and failure messages.
	 * @return a description such as {@code redis-server from PATH (/usr/bin/redis-server)}
	 */
	public abstract String description();

	/**
	 * Whether {@link #stop()} and {@link #start()} are supported: only for a server the
	 * harness owns.
	 * @return whether the server can be stopped and started
	 */
	public boolean supportsRestart() {
		return false;
	}

	/**
	 * Stops the server; connections to it fail until {@link #start()}.
	 */
	public void stop() {
		throw new UnsupportedOperationException("Cannot stop " + description());
	}

	/**
	 * Starts a stopped server again, on the same port, empty.
	 */
	public void start() {
		throw new UnsupportedOperationException("Cannot start " + description());
	}

	/**
	 * Whether the server process is running (not whether it answers).
	 * @return whether the server runs
	 */
	public boolean isRunning() {
		return true;
	}

	/**
	 * The server's URL.
	 * @return {@code redis://host:port}
	 */
	public String url() {
		return "redis://" + host() + ":" + port();
	}

	/**
	 * Who the harness's own connection ({@link #commands()}) logs in as.
	 * @return the credentials, or {@code null} for the default user without password
	 */
	@Nullable
	public RedisCredentials admin() {
		return null;
	}

	/**
	 * Makes the server stop answering every client for the given time ({@code CLIENT PAUSE
	 * ms ALL}); it answers again by itself afterwards.
	 * @param duration how long the server stays silent
	 */
	@Override
	public void pause(Duration duration) {
		commands().clientPause(duration.toMillis());
	}

	/**
	 * Synchronous commands on an admin connection of the harness's own, for assertions
	 * and setup: GET a key, SCRIPT FLUSH, FLUSHALL.
	 * @return the admin commands
	 */
	@Override
	public synchronized RedisCommands<String, String> commands() {
		if (this.adminConnection == null || !this.adminConnection.isOpen()) {
			closeAdminConnection();
			RedisURI uri = RedisURI.create(url());
			RedisCredentials admin = admin();
			if (admin != null) {
				// A credentials provider: Lettuce 7 has no setUsername/setPassword
				uri.setCredentialsProvider(
						new StaticCredentialsProvider(admin.username(), admin.password().toCharArray()));
			}
			this.adminClient = RedisClient.create(uri);
			this.adminConnection = this.adminClient.connect();
		}
		return this.adminConnection.sync();
	}

	@Override
	public List<RedisCommands<String, String>> masters() {
		return List.of(commands());
	}

	@Override
	public void registerProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", this::host);
		registry.add("spring.data.redis.port", this::port);
	}

	/**
	 * Deletes every key.
	 */
	public void flushAll() {
		commands().flushall();
	}

	/**
	 * Points a Spring Boot test at this server, logging in as the given user. Use it from a
	 * {@code @DynamicPropertySource} method.
	 * @param registry the test's dynamic properties
	 * @param credentials who the application logs in as
	 */
	public void registerProperties(DynamicPropertyRegistry registry, RedisCredentials credentials) {
		registerProperties(registry);
		if (credentials.username() != null) {
			registry.add("spring.data.redis.username", credentials::username);
		}
		registry.add("spring.data.redis.password", credentials::password);
	}

	/**
	 * A started Lettuce connection factory for this server; the caller destroys it.
	 * @param commandTimeout Lettuce's command timeout
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
		return connectionFactory(commandTimeout, null);
	}

	/**
	 * A started Lettuce connection factory for this server that logs in as the given user;
	 * the caller destroys it.
	 * @param commandTimeout Lettuce's command timeout
	 * @param credentials who the factory's connections log in as, or {@code null} for none
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory(Duration commandTimeout, @Nullable RedisCredentials credentials) {
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(host(), port());
		if (credentials != null) {
			configuration.setUsername(credentials.username());
			configuration.setPassword(RedisPassword.of(credentials.password()));
		}
		LettuceClientConfiguration clientConfiguration = LettuceClientConfiguration.builder()
			.commandTimeout(commandTimeout)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration, clientConfiguration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Brings the server back to a usable state after a test that injected a fault: started
	 * if it was stopped, answering again after a pause.
	 */
	@Override
	public void recover() {
		if (supportsRestart() && !isRunning()) {
			start();
		}
		RedisTestServers.awaitPing(host(), port(), Duration.ofSeconds(30), () -> true);
	}

	synchronized void closeAdminConnection() {
		if (this.adminConnection != null) {
			this.adminConnection.close();
			this.adminConnection = null;
		}
		if (this.adminClient != null) {
			this.adminClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			this.adminClient = null;
		}
	}

	/**
	 * Stops the server for good, if the harness owns it.
	 */
	void shutdown() {
		closeAdminConnection();
	}

	/**
	 * Stops a server from {@link #process()} for good; the shared server stops with the JVM.
	 */
	@Override
	public void close() {
		synchronized (RedisTestServer.class) {
			if (this == shared) {
				throw new IllegalStateException("The shared Redis server stops when the JVM exits");
			}
		}
		shutdown();
	}

	@Override
	public String toString() {
		return description() + " at " + host() + ":" + port();
	}

	/**
	 * What a {@link #process()} server is started with.
	 */
	public static final class Builder {

		private final List<String> configuration = new ArrayList<>();

		@Nullable
		private RedisCredentials admin;

		private Builder() {
		}

		/**
		 * Adds a line of {@code redis.conf}, such as {@code requirepass s3cret} or
		 * {@code user app on >pw ~app:* +get}.
		 * @param line the configuration line
		 * @return this builder
		 */
		public Builder config(String line) {
			this.configuration.add(line);
			return this;
		}

		/**
		 * Who the harness's own connection logs in as, for assertions and fault injection;
		 * it needs every permission.
		 * @param credentials the admin's credentials
		 * @return this builder
		 */
		public Builder admin(RedisCredentials credentials) {
			this.admin = credentials;
			return this;
		}

		/**
		 * Starts the server on a free loopback port.
		 * @return the running server; the caller closes it
		 */
		public RedisTestServer start() {
			return RedisTestServers.startProcess(this.configuration, this.admin);
		}

	}

}
