package io.github.lockable.autoconfigure;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code lockable.*} property that nothing binds is said at startup, with the nearest
 * known name; the names relaxed binding accepts are not.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownLockablePropertiesTests {

	@Test
	void typoIsWarnedWithTheNearestKnownProperty(CapturedOutput output) {
		start(Map.of("lockable.defualt-ttl", "5s"), Map.of());
		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("Unknown property 'lockable.defualt-ttl'", "did you mean 'lockable.default-ttl'?");
	}

	@Test
	void everyTypoIsNamed(CapturedOutput output) {
		start(Map.of("lockable.defualt-ttl", "5s", "lockable.stor", "memory", "lockable.redis.replica-to-ack", "1",
				"lockable.file.dir", "/tmp/x", "lockable.nonsense-entirely", "x"), Map.of());
		List<String> warnings = warnings(output);
		assertThat(warnings).hasSize(5);
		assertThat(String.join("\n", warnings)).contains("'lockable.defualt-ttl'", "'lockable.default-ttl'?",
				"'lockable.stor'", "'lockable.store'?", "'lockable.redis.replica-to-ack'",
				"'lockable.redis.replicas-to-ack'?", "'lockable.file.dir'", "'lockable.nonsense-entirely'",
				"no known lockable.* property is close");
	}

	@Test
	void relaxedAndEnvironmentVariableNamesAreKnown(CapturedOutput output) {
		start(Map.of("lockable.defaultTtl", "5s", "lockable.key_prefix", "relaxed", "lockable.ttl-warning-ratio", "0.9",
				"lockable.redis.replicasToAck", "0", "lockable.store", "memory"),
				Map.of("LOCKABLE_DEFAULTTTL", "6s", "LOCKABLE_DEFAULT_TTL", "7s", "LOCKABLE_ACQUIRE_TIMEOUT", "3s",
						"LOCKABLE_STORE_FAILURE", "fail", "LOCKABLE_TEST_REDIS_URL", "redis://elsewhere:6379"));
		assertThat(warnings(output)).isEmpty();
	}

	@Test
	void environmentVariableTypoIsWarned(CapturedOutput output) {
		start(Map.of(), Map.of("LOCKABLE_DEFUALT_TTL", "5s"));
		assertThat(warnings(output)).singleElement().asString().contains("did you mean 'lockable.default-ttl'?");
	}

	@Test
	void nothingIsSaidWhenLockableIsDisabled(CapturedOutput output) {
		start(Map.of("lockable.enabled", "false", "lockable.defualt-ttl", "5s"), Map.of());
		assertThat(warnings(output)).isEmpty();
	}

	private static void start(Map<String, Object> properties, Map<String, Object> variables) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		// Stands for the process's environment, which a test cannot set; Spring Boot maps the
		// names of a source so named as it maps environment variables.
		environment.getPropertySources()
			.addAfter("test", new SystemEnvironmentPropertySource(
					"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		SpringApplication application = new SpringApplication(PropertiesApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setEnvironment(environment);
		application.setDefaultProperties(Map.of("lockable.store", "memory"));
		try (ConfigurableApplicationContext context = application.run()) {
			assertThat(context.getBeanNamesForType(LockableProperties.class)).hasSizeLessThanOrEqualTo(1);
		}
	}

	private static List<String> warnings(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains(" WARN ") && line.contains("lockable")).toList();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, LockableAutoConfiguration.class })
	static class PropertiesApplication {

	}

}
