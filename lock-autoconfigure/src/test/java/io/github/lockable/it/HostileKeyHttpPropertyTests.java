package io.github.lockable.it;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.BeforeTry;

import io.github.lockable.test.HostileKeys;
import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.Gate;
import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Generated keys over real HTTP: the request body is the key part, which the resolver
 * passes on unchecked. An invalid one is a 400 problem response and the store saw nothing;
 * a valid one runs the handler under {@code lock:<body>}.
 */
@Tag("slow")
class HostileKeyHttpPropertyTests {

	private static final ObjectMapper json = new ObjectMapper();

	private static ConfigurableApplicationContext context;

	private static LocalHttp http;

	private RecordingLockStore store;

	private Gate gate;

	@BeforeContainer
	static void startApplication() {
		RedisTestServer redis = RedisTestServer.shared();
		SpringApplication application = new SpringApplication(LockableWebApplication.class);
		application.setDefaultProperties(Map.of("server.port", "0", "server.address", "127.0.0.1",
				"spring.main.banner-mode", "off", "spring.data.redis.host", redis.host(), "spring.data.redis.port",
				redis.port()));
		context = application.run();
		http = LocalHttp.of(context);
	}

	@AfterContainer
	static void stopApplication() {
		context.close();
	}

	@BeforeTry
	void clean() {
		this.store = context.getBean(RecordingLockStore.class);
		this.gate = context.getBean(Gate.class);
		this.store.clear();
		this.gate.reset();
	}

	@Provide
	Arbitrary<String> bodies() {
		return HostileKeys.resolverOutputs().filter((value) -> value != null);
	}

	@Property(tries = 200)
	void invalidKeyIsABadRequestAndTheStoreSeesNothing(@ForAll("bodies") String body) throws Exception {
		HttpResponse<String> response = http.sendBody("POST", "/raw-body", "text/plain;charset=UTF-8", body);
		// What the server reads: lone surrogates do not survive UTF-8, an empty body is no body.
		String received = new String(body.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
		if (!HostileKeys.obeysTheRule(received, 200)) {
			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			JsonNode problem = problem(response);
			assertThat(problem.get("type").asText()).isEqualTo("urn:lockable:problem:invalid-lock-key");
			assertThat(problem.get("retryable").asBoolean()).isFalse();
			assertThat(this.store.events()).isEmpty();
			assertThat(this.gate.runs()).hasValue(0);
			if (received.length() >= 8) {
				assertThat(response.body()).doesNotContain(received);
			}
			return;
		}
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("ran");
		assertThat(this.store.events()).containsExactly("acquire lock:" + received, "release lock:" + received);
	}

	private static JsonNode problem(HttpResponse<String> response) throws IOException {
		return json.readTree(response.body());
	}

}
