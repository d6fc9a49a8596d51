package io.github.lockable.consumer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockConflictException;
import io.github.lockable.Lockable;
import io.github.lockable.store.LockStore;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What a user sees on this Spring Boot line, with the starter (the memory store here: no
 * Redis server) or, in the {@code file-store} profile, with the auto-configuration and the
 * file store and no Redis library: a {@code @Lockable} method is proxied without AspectJ on
 * the class path, and a second caller is refused while the first holds the lock.
 */
@SpringBootTest
class ConsumerApplicationTests {

	@Autowired
	private Job job;

	@Autowired
	private LockStore store;

	@Test
	void theStoreIsTheOneConfigured() {
		String expected = System.getProperty("lockable.store", "memory");
		assertThat(this.store.name()).isEqualTo(expected);
		if (expected.equals("file")) {
			assertThat(ClassUtils.isPresent("io.lettuce.core.RedisClient", getClass().getClassLoader())).isFalse();
		}
	}

	@Test
	void theStarterBringsNoAspectJ() {
		System.out.println("Spring Boot " + SpringBootVersion.getVersion());
		assertThat(ClassUtils.isPresent("org.aspectj.weaver.Advice", getClass().getClassLoader())).isFalse();
	}

	@Test
	void aSecondCallerIsRefusedWhileTheFirstHoldsTheLock() throws Exception {
		assertThat(AopUtils.isAopProxy(this.job)).isTrue();
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Void> first = CompletableFuture.runAsync(() -> this.job.run(release));
		try {
			assertThat(this.job.awaitStart()).as("the first caller entered (its call: %s)", first).isTrue();
			assertThatExceptionOfType(LockConflictException.class).isThrownBy(() -> this.job.run(new CountDownLatch(0)));
		}
		finally {
			release.countDown();
		}
		first.get(10, TimeUnit.SECONDS);
		this.job.run(new CountDownLatch(0));
	}

	@SpringBootApplication
	static class ConsumerApplication {

		@Bean
		Job job() {
			return new Job();
		}

	}

	static class Job {

		private final CountDownLatch started = new CountDownLatch(1);

		// Through the proxy: a class proxy's own fields are not the target's
		public boolean awaitStart() throws InterruptedException {
			return this.started.await(10, TimeUnit.SECONDS);
		}

		@Lockable(key = "consumer:job", ttl = "30s", conflictPolicy = ConflictPolicy.CONFLICT)
		public void run(CountDownLatch release) {
			this.started.countDown();
			try {
				release.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
