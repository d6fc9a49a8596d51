package io.github.lockable.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.redis.RedisExtension;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lockable.store-failure=proceed}: with the store down, the handler runs unlocked
 * and says so.
 */
@SpringBootTest(classes = LockableWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "lockable.store=redis", "lockable.store-failure=proceed", "lockable.acquire-timeout=300ms" })
@ExtendWith({ OutputCaptureExtension.class, RedisExtension.class })
class StoreFailureProceedTests extends GatedHttpTests {

	private final RedisTestServer redis = RedisTestServer.shared();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServer.shared().registerProperties(registry);
	}

	@Test
	void handlerRunsUnlockedWhenTheStoreDoesNotAnswer(CapturedOutput output) throws Exception {
		UUID warmUp = UUID.randomUUID();
		this.gate.open("archive:" + warmUp);
		// Opens the connection, which the pause would otherwise hold up (bounded by the connect timeout).
		assertThat(archive(warmUp).statusCode()).isEqualTo(200);

		UUID project = UUID.randomUUID();
		this.gate.open("archive:" + project);
		this.redis.pause(Duration.ofSeconds(3));
		HttpResponse<String> response = archive(project);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("archived");
		assertThat(this.gate.runs()).hasValue(2);
		// The outage's first failure is logged in full, at ERROR (as StoreFailurePolicy.PROCEED says):
		// the work ran unprotected. On a loaded machine the warm-up itself may miss its 300ms and be
		// that first failure, so the line may name either project.
		assertThat(output).containsPattern("\\bERROR\\b[^\\n]*Endpoints.archive\\(UUID\\) runs without a lock "
				+ "\\(lockable.store-failure=proceed\\): lock store redis failed to acquire lock:project:(" + project
				+ "|" + warmUp + ") "
				+ "\\(TIMEOUT: Redis did not answer within 300ms");
	}

	private HttpResponse<String> archive(UUID project) throws Exception {
		return this.http.post("/projects/" + project + "/archive");
	}

}
