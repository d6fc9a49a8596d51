package io.github.lockable.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.core.LockableCore;
import io.github.lockable.core.LockableEndpoint;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.BootLine;
import io.github.lockable.test.ForwardingLockStore;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class LockableEndpointAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class,
				EndpointAutoConfiguration.class, LockableEndpointAutoConfiguration.class))
		.withConfiguration(AutoConfigurations.of(BootLine.HEALTH_AUTO_CONFIGURATIONS))
		.withPropertyValues("lockable.store=memory");

	@Test
	void endpointIsNotAvailableUnlessExposed() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(LockableCore.class)
			.doesNotHaveBean(LockableEndpoint.class));
	}

	@Test
	void endpointIsAvailableWhenExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=lockable")
			.run((context) -> assertThat(context).hasSingleBean(LockableEndpoint.class));
	}

	@Test
	void endpointIsNotAvailableWhenExposedWithoutAccess() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=lockable",
					"management.endpoint.lockable.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(LockableEndpoint.class));
	}

	@Test
	void noEndpointWithoutActuator() {
		this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.withPropertyValues("management.endpoints.web.exposure.include=lockable")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LockableCore.class)
				.doesNotHaveBean(LockableEndpoint.class));
	}

	@Test
	void noEndpointWhenLockableIsDisabled() {
		this.runner.withPropertyValues("lockable.enabled=false", "management.endpoints.web.exposure.include=lockable")
			.run((context) -> assertThat(context).doesNotHaveBean(LockableEndpoint.class));
	}

	@Test
	void aUserEndpointBacksOffOurs() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=lockable")
			.withBean("myEndpoint", LockableEndpoint.class,
					() -> new LockableEndpoint(LockableCore.builder(new MemoryLockStore()).build(),
							new StaticListableBeanFactory().getBeanProvider(Advisor.class)))
			.run((context) -> assertThat(context).hasSingleBean(LockableEndpoint.class).hasBean("myEndpoint"));
	}

	@Test
	void fileStoreHasAHealthIndicatorNamedLockable(@TempDir Path directory) throws IOException {
		Files.createDirectory(directory.resolve("locks"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		this.runner.withPropertyValues("lockable.store=file", "lockable.file.directory=" + directory.resolve("locks"))
			.run((context) -> {
				assertThat(context).hasBean("lockableHealthIndicator");
				BootLine.HealthReport health = BootLine.health(context.getBean("lockableHealthIndicator"));
				assertThat(health.status()).as(health.details().toString()).isEqualTo("UP");
				assertThat(health.details()).containsEntry("directory", directory.resolve("locks").toString())
					.containsEntry("mode", "rwx------");
			});
	}

	@Test
	void fileStoreHealthCanBeDisabled(@TempDir Path directory) {
		this.runner
			.withPropertyValues("lockable.store=file", "lockable.file.directory=" + directory.resolve("locks"),
					"management.health.lockable.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("lockableHealthIndicator"));
	}

	@Test
	void anyStoreThatChecksItselfHasTheHealthIndicator() {
		this.runner.withBean(SelfCheckingStore.class, SelfCheckingStore::new).run((context) -> {
			BootLine.HealthReport health = BootLine.health(context.getBean("lockableHealthIndicator"));
			assertThat(health.status()).isEqualTo("DOWN");
			assertThat(health.details()).containsEntry("reason", "disk on fire");
		});
	}

	@Test
	void memoryStoreHasNoHealthIndicator() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean("lockableHealthIndicator"));
	}

	@Test
	void noHealthIndicatorWithoutActuator(@TempDir Path directory) {
		this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.withPropertyValues("lockable.store=file", "lockable.file.directory=" + directory.resolve("locks"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("lockableHealthIndicator"));
	}

	@Test
	void noHealthIndicatorWithoutTheHealthApi(@TempDir Path directory) {
		// Without Boot's health auto-configurations, which the hidden API would hide too
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class,
					EndpointAutoConfiguration.class, LockableEndpointAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health.",
					"org.springframework.boot.health."))
			.withPropertyValues("lockable.store=file", "lockable.file.directory=" + directory.resolve("locks"),
					"management.endpoints.web.exposure.include=lockable")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LockableEndpoint.class)
				.doesNotHaveBean("lockableHealthIndicator"));
	}

	/** A third-party store that reports its health as the built-in ones do. */
	static class SelfCheckingStore extends ForwardingLockStore implements LockStoreHealth {

		SelfCheckingStore() {
			super(new MemoryLockStore());
		}

		@Override
		public String name() {
			return "self-checking";
		}

		@Override
		public Status checkHealth() {
			return new Status(false, Map.of("reason", "disk on fire"));
		}

	}

}
