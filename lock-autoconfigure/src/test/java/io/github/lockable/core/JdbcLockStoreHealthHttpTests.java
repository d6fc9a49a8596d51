package io.github.lockable.core;

import java.net.http.HttpResponse;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.ApplicationWithoutSecurity;
import io.github.lockable.test.jdbc.JdbcTestDatabases;
import io.github.lockable.test.jdbc.PostgresTestServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC store's health, component {@code lockable}, over real HTTP on a real
 * PostgreSQL database: {@code UP} with the table and the platform while the lock table can
 * be read, {@code DOWN} with the error's code once it is gone.
 */
@SpringBootTest(classes = JdbcLockStoreHealthHttpTests.Application.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=jdbc", "lockable.jdbc.initialize-schema=always",
				"management.endpoints.web.exposure.include=health", "management.endpoint.health.show-details=always",
				"management.health.redis.enabled=false" })
class JdbcLockStoreHealthHttpTests {

	private static final String DATABASE = "health_http";

	private static final ObjectMapper json = new ObjectMapper();

	@RegisterExtension
	final LocalHttp http = new LocalHttp();

	@Autowired
	private DataSource dataSource;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", () -> {
			PostgresTestServer server = PostgresTestServer.shared();
			server.createDatabase(DATABASE);
			return server.jdbcUrl(DATABASE);
		});
		registry.add("spring.datasource.username", () -> PostgresTestServer.USER);
	}

	@Test
	void healthIsUpWhileTheLockTableCanBeReadAndDownWithTheCodeOnceItIsGone() throws Exception {
		HttpResponse<String> response = this.http.send("GET", "/actuator/health");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode lockable = json.readTree(response.body()).get("components").get("lockable");
		assertThat(lockable.get("status").asText()).isEqualTo("UP");
		assertThat(lockable.get("details").get("table").asText()).isEqualTo("lockable_lock");
		assertThat(lockable.get("details").get("platform").asText()).isEqualTo("postgresql");
		new JdbcTemplate(this.dataSource).execute("DROP TABLE lockable_lock");
		try {
			response = this.http.send("GET", "/actuator/health");
			assertThat(response.statusCode()).isEqualTo(503);
			JsonNode components = json.readTree(response.body()).get("components");
			lockable = components.get("lockable");
			assertThat(lockable.get("status").asText()).isEqualTo("DOWN");
			assertThat(lockable.get("details").get("error").asText()).isEqualTo("NO_TABLE");
			assertThat(lockable.get("details").get("table").asText()).isEqualTo("lockable_lock");
			assertThat(components.get("db").get("status").asText()).as("the database itself is fine").isEqualTo("UP");
		}
		finally {
			JdbcTestDatabases.createTable(this.dataSource, "postgresql");
		}
		assertThat(json.readTree(this.http.send("GET", "/actuator/health").body()).get("components").get("lockable")
			.get("status").asText()).isEqualTo("UP");
	}

	@ApplicationWithoutSecurity
	static class Application {

	}

}
