package io.github.lockable.autoconfigure;

import io.github.lockable.web.LockableExceptionHandler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;

/**
 * Auto-configuration of the web adapter: Lockable's exceptions as
 * {@code application/problem+json} in Spring MVC and WebFlux applications.
 */
@AutoConfiguration(after = LockableAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "lockable.enabled", matchIfMissing = true)
@ConditionalOnWebApplication
@ConditionalOnClass(ProblemDetail.class)
public class LockableWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockableExceptionHandler lockableExceptionHandler() {
		return new LockableExceptionHandler();
	}

}
