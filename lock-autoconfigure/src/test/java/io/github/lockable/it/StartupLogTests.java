package io.github.lockable.it;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.lockable.test.BootLine;
import io.github.lockable.test.app.LockableWebApplication;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's startup log shows no warning from Lockable when nothing is wrong: a full start
 * of a web application with Actuator, metrics, transactions, validation and Redis.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupLogTests {

	@Test
	void fullApplicationStartLogsNoWarningAboutLockable(CapturedOutput output) {
		RedisTestServer redis = RedisTestServer.shared();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(LockableWebApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + redis.host(),
					"spring.data.redis.port=" + redis.port(), "management.endpoints.web.exposure.include=*")
			.run()) {
			assertThat(context.getBeanProvider(BootLine.HEALTH_ENDPOINT).getIfAvailable()).as("Actuator").isNotNull();
		}
		List<String> warnings = output.getAll()
			.lines()
			.filter((line) -> line.contains(" WARN ") || line.contains("not eligible for getting processed"))
			.toList();
		assertThat(warnings).noneMatch((line) -> line.toLowerCase(Locale.ROOT).contains("lock"));
	}

}
