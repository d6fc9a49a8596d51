package io.github.lockable.core;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.lockable.test.LocalHttp;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without exposure the {@code lockable} endpoint does not exist.
 */
@SpringBootTest(classes = LockableActuatorHttpTests.Application.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=memory", "management.health.redis.enabled=false" })
class LockableActuatorNotExposedTests {

	@RegisterExtension
	final LocalHttp http = new LocalHttp();

	@Autowired
	private ApplicationContext context;

	@Test
	void endpointIsNotExposedByDefault() throws Exception {
		HttpResponse<String> response = this.http.send("GET", "/actuator/lockable");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(this.context.getBeanNamesForType(LockableEndpoint.class)).isEmpty();
	}

}
