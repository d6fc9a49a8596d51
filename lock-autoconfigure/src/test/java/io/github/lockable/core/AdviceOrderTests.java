package io.github.lockable.core;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.lockable.Lockable;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.test.ForwardingLockStore;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Authorization comes before the lock: a caller that may not run the method never takes or
 * waits for its lock.
 */
class AdviceOrderTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockableAutoConfiguration.class))
		.withUserConfiguration(SecuredConfiguration.class);

	@AfterEach
	void clearAuthentication() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void unauthenticatedCallerNeverReachesTheStore() {
		this.runner.run((context) -> {
			CountingStore store = context.getBean(CountingStore.class);
			SecuredService service = context.getBean(SecuredService.class);
			assertThatExceptionOfType(AuthenticationCredentialsNotFoundException.class).isThrownBy(service::adminOnly);
			assertThat(store.calls).isEmpty();

			SecurityContextHolder.getContext()
				.setAuthentication(new TestingAuthenticationToken("admin", "n/a", "ROLE_ADMIN"));
			assertThat(service.adminOnly()).isEqualTo("done");
			assertThat(store.calls).containsExactly("acquire lock:admin", "release lock:admin");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableMethodSecurity
	static class SecuredConfiguration {

		@Bean
		CountingStore countingStore() {
			return new CountingStore();
		}

		@Bean
		SecuredService securedService() {
			return new SecuredService();
		}

	}

	static class SecuredService {

		@PreAuthorize("hasRole('ADMIN')")
		@Lockable(key = "admin")
		public String adminOnly() {
			return "done";
		}

	}

	/** The memory store, writing down which calls reached it. */
	static class CountingStore extends ForwardingLockStore {

		final List<String> calls = new CopyOnWriteArrayList<>();

		CountingStore() {
			super(new MemoryLockStore());
		}

		@Override
		public String name() {
			return "counting";
		}

		@Override
		public CompletionStage<AcquireResult> acquire(LockRequest request) {
			this.calls.add("acquire " + request.key());
			return acquireOwned(request);
		}

		@Override
		public CompletionStage<ReleaseResult> release(LockLease lease) {
			this.calls.add("release " + lease.key());
			return super.release(lease);
		}

	}

}
