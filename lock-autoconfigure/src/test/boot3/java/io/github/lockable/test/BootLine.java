package io.github.lockable.test;

import java.util.Map;

import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

/**
 * The classes whose package differs between Spring Boot lines, for tests that name them:
 * this copy for Boot 3, {@code src/test/boot4} has Boot 4's. The build picks one.
 */
public final class BootLine {

	/** Spring Boot's Redis auto-configuration. */
	public static final Class<?> REDIS_AUTO_CONFIGURATION = RedisAutoConfiguration.class;

	/** Spring Boot's health contributor and health endpoint auto-configurations. */
	public static final Class<?>[] HEALTH_AUTO_CONFIGURATIONS = { HealthContributorAutoConfiguration.class,
			HealthEndpointAutoConfiguration.class };

	/** Actuator's health endpoint. */
	public static final Class<?> HEALTH_ENDPOINT = HealthEndpoint.class;

	private BootLine() {
	}

	/**
	 * Runs a health indicator of this line.
	 * @param indicator a {@code HealthIndicator}
	 * @return its status code followed by its details under their names
	 */
	public static HealthReport health(Object indicator) {
		var health = ((HealthIndicator) indicator).health();
		return new HealthReport(health.getStatus().getCode(), health.getDetails());
	}

	/**
	 * What a health indicator reported.
	 * @param status the status code, such as {@code UP}
	 * @param details the details
	 */
	public record HealthReport(String status, Map<String, Object> details) {
	}

}
