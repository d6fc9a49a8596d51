package io.github.lockable.test;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Makes every test context use the memory store, unless the test sets
 * {@code lockable.store} itself. The default ranks below the test's own properties
 * ({@code @SpringBootTest(properties)}, {@code @TestPropertySource},
 * {@code @DynamicPropertySource}), system properties and environment variables, and above
 * the application's configuration files, whose store is the production one.
 */
class MemoryStoreContextCustomizerFactory implements ContextCustomizerFactory {

	static final String PROPERTY_SOURCE_NAME = "lockableTestStore";

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new MemoryStoreContextCustomizer();
	}

	/** One for every context: equal to each other, so that it never splits the context cache. */
	static final class MemoryStoreContextCustomizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
			MutablePropertySources sources = context.getEnvironment().getPropertySources();
			MapPropertySource memoryStore = new MapPropertySource(PROPERTY_SOURCE_NAME,
					Map.of("lockable.store", "memory"));
			if (sources.contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
				sources.addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, memoryStore);
			}
			else {
				sources.addLast(memoryStore);
			}
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other != null && other.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
