package io.github.lockable.test;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the test kit's memory store default ranks: above the application's configuration
 * files, below the test's own properties, system properties and environment variables.
 */
class MemoryStoreContextCustomizerFactoryTests {

	@Test
	void isRegisteredForTheTestContextFramework() {
		assertThat(SpringFactoriesLoader.loadFactories(ContextCustomizerFactory.class, null))
			.hasAtLeastOneElementOfType(MemoryStoreContextCustomizerFactory.class);
	}

	@Test
	void winsOverTheApplicationsConfiguration() {
		assertThat(storeAfterCustomizing(Map.of())).isEqualTo("memory");
	}

	@Test
	void losesToASystemProperty() {
		assertThat(storeAfterCustomizing(Map.of("lockable.store", "file"))).isEqualTo("file");
	}

	@Test
	void losesToTheTestsOwnProperties() {
		GenericApplicationContext context = contextWithApplicationConfig(Map.of());
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("Inlined Test Properties", Map.of("lockable.store", "redis")));
		customizer().customizeContext(context, null);
		assertThat(context.getEnvironment().getProperty("lockable.store")).isEqualTo("redis");
	}

	@Test
	void isOneForEveryTestClassSoThatContextsAreShared() {
		MemoryStoreContextCustomizerFactory factory = new MemoryStoreContextCustomizerFactory();
		assertThat(factory.createContextCustomizer(String.class, List.of()))
			.isEqualTo(factory.createContextCustomizer(Integer.class, List.of()))
			.hasSameHashCodeAs(factory.createContextCustomizer(Integer.class, List.of()));
	}

	private static String storeAfterCustomizing(Map<String, Object> systemProperties) {
		GenericApplicationContext context = contextWithApplicationConfig(systemProperties);
		customizer().customizeContext(context, null);
		return context.getEnvironment().getProperty("lockable.store");
	}

	/** An environment as Spring Boot prepares it: the configuration files after the system's sources. */
	private static GenericApplicationContext contextWithApplicationConfig(Map<String, Object> systemProperties) {
		GenericApplicationContext context = new GenericApplicationContext();
		var sources = context.getEnvironment().getPropertySources();
		sources.replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
				new MapPropertySource(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, systemProperties));
		sources.addLast(new MapPropertySource("Config resource 'class path resource [application.yml]'",
				Map.of("lockable.store", "redis")));
		return context;
	}

	private static ContextCustomizer customizer() {
		return new MemoryStoreContextCustomizerFactory().createContextCustomizer(Object.class, List.of());
	}

}
