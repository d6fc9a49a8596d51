package io.github.lockable.test;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Resets the {@link LockableTestKit} of the test's context after every test method, so
 * that no lock or event outlives its test. Registered in {@code spring.factories}, as
 * Spring Boot registers its own listeners; a test whose context was not loaded is left
 * alone.
 */
class LockableTestKitResetListener implements TestExecutionListener, Ordered {

	@Override
	public int getOrder() {
		// Before DirtiesContextTestExecutionListener closes a context after its test method.
		return Ordered.LOWEST_PRECEDENCE - 100;
	}

	@Override
	public void afterTestMethod(TestContext testContext) {
		if (!testContext.hasApplicationContext()) {
			return;
		}
		ApplicationContext context = testContext.getApplicationContext();
		if (context instanceof ConfigurableApplicationContext configurable && !configurable.isActive()) {
			return;
		}
		context.getBeanProvider(LockableTestKit.class).ifAvailable(LockableTestKit::reset);
	}

}
