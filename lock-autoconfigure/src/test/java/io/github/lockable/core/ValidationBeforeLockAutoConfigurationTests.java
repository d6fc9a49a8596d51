package io.github.lockable.core;

import org.junit.jupiter.api.Test;

import io.github.lockable.autoconfigure.LockableAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.validation.beanvalidation.MethodValidationInterceptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The post-processor that puts method validation before the lock exists only where there is
 * method validation to move and a lock to move it in front of.
 */
class ValidationBeforeLockAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class))
		.withPropertyValues("lockable.store=memory");

	@Test
	void presentWithMethodValidationOnTheClassPath() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(ValidationBeforeLockPostProcessor.class));
	}

	@Test
	void absentWithoutMethodValidationInterceptor() {
		this.runner.withClassLoader(new FilteredClassLoader(MethodValidationInterceptor.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ValidationBeforeLockPostProcessor.class));
	}

	@Test
	void absentWithoutBeanValidation() {
		this.runner.withClassLoader(new FilteredClassLoader("jakarta.validation."))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ValidationBeforeLockPostProcessor.class));
	}

	@Test
	void absentWhenLockableIsDisabled() {
		this.runner.withPropertyValues("lockable.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ValidationBeforeLockPostProcessor.class));
	}

}
