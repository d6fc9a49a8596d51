package io.github.lockable.test.redis;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test the shared {@link RedisTestServer} as a parameter, and brings the server
 * back after each test, in case the test stopped or paused it.
 */
public class RedisExtension implements ParameterResolver, AfterEachCallback {

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RedisTestServer.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext)
			throws ParameterResolutionException {
		return RedisTestServer.shared();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		RedisTestServer.shared().recover();
	}

}
