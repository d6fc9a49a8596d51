package io.github.lockable.it;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.BeforeTry;
import org.slf4j.LoggerFactory;

import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.Lockable;
import io.github.lockable.store.LockLease;
import io.github.lockable.test.HostileKeys;
import io.github.lockable.test.app.ApplicationWithoutSecurity;
import io.github.lockable.test.app.RecordingLockStore;
import io.github.lockable.test.app.RecordingStoreConfiguration;
import io.github.lockable.test.redis.RedisTestServer;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Generated resolver outputs through a real application: a {@code @Lockable} method whose
 * resolver bean returns its argument, the Redis store behind a recording store, a real
 * Redis. Each output is either refused with {@link InvalidLockKeyException} before any
 * store call, the method not run and the value in no log line, or locked in Redis at
 * exactly {@code lock:<output>}, which the method reads back while it holds the lock.
 */
@Tag("slow")
class HostileResolverPropertyTests {

	private static final RedisTestServer redis = RedisTestServer.shared();

	private static ConfigurableApplicationContext context;

	private static ListAppender<ILoggingEvent> logs;

	private static Logger lockableLogger;

	private Locked locked;

	private RecordingLockStore store;

	@BeforeContainer
	static void startApplication() {
		SpringApplication application = new SpringApplication(HostileApplication.class);
		// A generous acquire timeout: a loaded machine must not turn a try into a store failure.
		application.setDefaultProperties(Map.of("spring.main.web-application-type", "none", "spring.main.banner-mode",
				"off", "lockable.acquire-timeout", "10s", "spring.data.redis.host", redis.host(),
				"spring.data.redis.port", redis.port()));
		context = application.run();
		logs = new ListAppender<>();
		logs.start();
		lockableLogger = (Logger) LoggerFactory.getLogger("io.github.lockable");
		lockableLogger.addAppender(logs);
	}

	@AfterContainer
	static void stopApplication() {
		lockableLogger.detachAppender(logs);
		context.close();
	}

	@BeforeTry
	void clean() {
		this.locked = context.getBean(Locked.class);
		this.store = context.getBean(RecordingLockStore.class);
		this.store.clear();
		this.locked.runs().set(0);
		logs.list.clear();
	}

	@Provide
	Arbitrary<String> resolverOutputs() {
		return HostileKeys.resolverOutputs();
	}

	@Property(tries = 10_000)
	void outputIsRefusedBeforeTheStoreOrLockedInsideThePrefix(@ForAll("resolverOutputs") String output) {
		if (!HostileKeys.obeysTheRule(output, 200)) {
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> this.locked.run(output))
				.withMessageStartingWith("The lock key from resolver 'hostile' for ")
				.satisfies((ex) -> assertThat(ex.getMessage()).containsPattern(HostileKeys.problems(200) + "$"));
			assertThat(this.store.events()).isEmpty();
			assertThat(this.locked.runs()).hasValue(0);
			// A short value may happen to be a piece of the message; a longer one is not.
			if (output != null && output.length() >= 8) {
				assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage)
					.allSatisfy((line) -> assertThat(line).doesNotContain(output));
			}
			return;
		}
		String tokenInRedis = this.locked.run(output);
		String key = "lock:" + output;
		assertThat(this.locked.runs()).hasValue(1);
		assertThat(this.store.events()).containsExactly("acquire " + key, "release " + key);
		List<LockLease> acquired = this.store.acquired();
		assertThat(acquired).singleElement().satisfies((lease) -> {
			assertThat(lease.key()).isEqualTo(key);
			assertThat(lease.token()).isEqualTo(tokenInRedis);
		});
		assertThat(redis.commands().exists(key)).isZero();
	}

	@ApplicationWithoutSecurity
	@Import(RecordingStoreConfiguration.class)
	static class HostileApplication {

		/** A resolver that trusts its input: returns the method's argument as it is. */
		@Bean
		LockKeyResolver hostile() {
			return (invocation) -> invocation.argument("value", String.class);
		}

		@Bean
		Locked locked() {
			return new Locked();
		}

	}

	/**
	 * A locked method that reads, while it holds the lock, what Redis has at the key the
	 * rule promises.
	 */
	static class Locked {

		private final AtomicInteger runs = new AtomicInteger();

		/** Read through the proxy, which has no state of its own. */
		public AtomicInteger runs() {
			return this.runs;
		}

		@Lockable(resolver = "hostile", ttl = "10s")
		public String run(String value) {
			this.runs.incrementAndGet();
			return redis.commands().get("lock:" + value);
		}

	}

}
