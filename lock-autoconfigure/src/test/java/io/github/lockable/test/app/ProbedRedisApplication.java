package io.github.lockable.test.app;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import io.github.lockable.Lockable;
import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.redis.RedisTestServer;
import io.github.lockable.test.redis.RedisTopology;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A web application on the auto-configured Redis store, as a user's is, for the tests of
 * what the store says about the server it finds: a locked endpoint, one more that holds
 * its lock until the test opens its {@link Gate} ({@code held}), Actuator's health with
 * details.
 */
@ApplicationWithoutSecurity
public class ProbedRedisApplication {

	/** The application's Redis client name, to find its connections in {@code CLIENT LIST}. */
	public static final String CLIENT_NAME = "lockable-probed-app";

	@Bean
	Gate gate() {
		return new Gate();
	}

	@RestController
	static class Jobs {

		private final Gate gate;

		Jobs(Gate gate) {
			this.gate = gate;
		}

		@PostMapping("/jobs/nightly")
		@Lockable(key = "jobs:nightly", ttl = "10s")
		String nightly() {
			this.gate.runs().incrementAndGet();
			return "ran";
		}

		@PostMapping("/jobs/held")
		@Lockable(key = "jobs:held", ttl = "60s")
		String held() {
			this.gate.pass("held");
			return "ran";
		}

	}

	/**
	 * Starts the application on a random port against the server.
	 * @param redis the server
	 * @param properties more properties, such as the user to log in as
	 * @return the running application
	 */
	public static ConfigurableApplicationContext start(RedisTestServer redis, String... properties) {
		return start((RedisTopology) redis, properties);
	}

	/**
	 * Starts the application on a random port against the topology (a server, a cluster).
	 * @param redis the topology, whose connection properties the application gets
	 * @param properties more properties, such as the user to log in as
	 * @return the running application
	 */
	public static ConfigurableApplicationContext start(RedisTopology redis, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.client-name=" + CLIENT_NAME,
				"management.endpoints.web.exposure.include=health",
				"management.endpoint.health.show-details=always"));
		redis.registerProperties((name, value) -> all.add(name + "=" + value.get()));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(ProbedRedisApplication.class).properties(all.toArray(String[]::new))
			.run();
	}

	/** The {@code lockable} health component, as JSON. */
	public static HttpResponse<String> lockableHealth(ConfigurableApplicationContext context) throws Exception {
		return LocalHttp.of(context).send("GET", "/actuator/health/lockable");
	}

}
