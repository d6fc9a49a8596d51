package io.github.lockable.test.redis;

import java.net.URI;

/**
 * A server the developer runs, named by {@code LOCKABLE_TEST_REDIS_URL}. Tests flush it.
 */
final class ExternalRedisServer extends RedisTestServer {

	private final URI uri;

	ExternalRedisServer(URI uri) {
		this.uri = uri;
		RedisTestServers.awaitPing(host(), port(), java.time.Duration.ofSeconds(5), () -> true);
	}

	@Override
	public String host() {
		return this.uri.getHost();
	}

	@Override
	public int port() {
		return (this.uri.getPort() != -1) ? this.uri.getPort() : 6379;
	}

	@Override
	public String description() {
		return RedisTestServers.URL_VARIABLE;
	}

}
