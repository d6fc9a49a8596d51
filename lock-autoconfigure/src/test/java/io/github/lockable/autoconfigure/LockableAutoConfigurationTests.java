package io.github.lockable.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockKeyResolver;
import io.github.lockable.HeldLock;
import io.github.lockable.LockTemplate;
import io.github.lockable.Lockable;
import io.github.lockable.LockableConfigurationException;
import io.github.lockable.core.LockableCore;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.file.FileLockStore;
import io.github.lockable.store.memory.MemoryLockStore;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.BootLine;
import io.github.lockable.web.LockableExceptionHandler;

import org.springframework.aop.Advisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.info.GitProperties;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LockableAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(AopAutoConfiguration.class, BootLine.REDIS_AUTO_CONFIGURATION, LockableAutoConfiguration.class,
				LockableWebAutoConfiguration.class, LockableMetricsAutoConfiguration.class));

	@Test
	void redisIsTheDefaultStoreOnTheApplicationsLettuceConnectionFactory() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(RedisLockStore.class)
				.hasSingleBean(LockableCore.class)
				.hasSingleBean(LettuceConnectionFactory.class);
			assertThat(lockableAdvisors(context)).hasSize(1);
			assertThat(context.getBean(LockableCore.class).store()).isSameAs(context.getBean(LockStore.class));
			assertThat(context).doesNotHaveBean(LockableExceptionHandler.class);
		});
	}

	@Test
	void memoryStoreOnRequest() {
		this.runner.withPropertyValues("lockable.store=memory").run((context) -> {
			assertThat(context).hasSingleBean(MemoryLockStore.class).doesNotHaveBean(RedisLockStore.class);
		});
	}

	@Test
	void locksWithoutMicrometerOnTheClassPath() {
		this.runner.withClassLoader(new FilteredClassLoader("io.micrometer."))
			.withPropertyValues("lockable.store=memory")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(LockableCore.class);
				LockTemplate locks = context.getBean(LockTemplate.class);
				try (HeldLock held = locks.tryLock("no-micrometer", Duration.ofSeconds(30)).orElseThrow()) {
					assertThat(locks.tryLock("no-micrometer", Duration.ofSeconds(30))).isEmpty();
				}
			});
	}

	@Test
	void fileStoreOnRequestInTheConfiguredDirectory(@TempDir Path directory) {
		this.runner
			.withPropertyValues("lockable.store=file", "lockable.file.directory=" + directory.resolve("locks"),
					"spring.application.version=1.4.2")
			.withUserConfiguration(JobConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(FileLockStore.class).doesNotHaveBean(RedisLockStore.class);
				assertThat(context.getBean(Job.class).run()).isEqualTo("ran");
				assertThat(directory.resolve("locks")).isDirectory();
			});
	}

	@Test
	void fileStoreRecordsVersionAndCommitWhenKnown() {
		MockEnvironment environment = new MockEnvironment().withProperty("spring.application.version", "1.4.2");
		Properties git = new Properties();
		git.setProperty("commit.id", "8f3a1c2d9e0b");
		Properties build = new Properties();
		build.setProperty("version", "2.0.0");
		assertThat(FileLockStoreConfiguration.version(null, null, environment)).isEqualTo("1.4.2");
		assertThat(FileLockStoreConfiguration.version(null, new GitProperties(git), environment))
			.isEqualTo("1.4.2 (8f3a1c2)");
		assertThat(FileLockStoreConfiguration.version(new BuildProperties(build), new GitProperties(git),
				environment))
			.isEqualTo("2.0.0 (8f3a1c2)");
		assertThat(FileLockStoreConfiguration.version(null, null, new MockEnvironment())).isNull();
	}

	@Test
	void storeNameIsCaseInsensitive() {
		this.runner.withPropertyValues("lockable.store=MEMORY")
			.run((context) -> assertThat(context).hasSingleBean(MemoryLockStore.class));
	}

	@Test
	void disabledMeansNoAdviceAndUnlockedMethods() {
		this.runner.withPropertyValues("lockable.enabled=false", "lockable.store=memory")
			.withUserConfiguration(JobConfiguration.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(LockableCore.class)
					.doesNotHaveBean(LockStore.class);
				assertThat(lockableAdvisors(context)).isEmpty();
				assertThat(AopUtils.isAopProxy(context.getBean(Job.class))).isFalse();
			});
	}

	@Test
	void userDefinedStoreReplacesTheDefault() {
		this.runner.withBean("customStore", LockStore.class, MemoryLockStore::new).run((context) -> {
			assertThat(context).hasSingleBean(LockStore.class).doesNotHaveBean(RedisLockStore.class);
			assertThat(context.getBean(LockableCore.class).store()).isSameAs(context.getBean("customStore"));
		});
	}

	@Test
	void twoUserDefinedStoresAskForAPrimaryOne() {
		this.runner.withBean("one", LockStore.class, MemoryLockStore::new)
			.withBean("two", LockStore.class, MemoryLockStore::new)
			.run((context) -> assertThat(rootCause(context.getStartupFailure()))
				.hasMessageContaining("there are 2 LockStore beans; mark the one to use @Primary"));
	}

	@Test
	void userDefinedBeansBackOff() {
		LockableCore core = LockableCore.builder(new MemoryLockStore()).keyPrefix("custom").build();
		this.runner.withPropertyValues("lockable.store=memory")
			.withBean(LockableCore.class, () -> core)
			.run((context) -> {
				assertThat(context.getBean(LockableCore.class)).isSameAs(core);
				assertThat(context.getBean(LockTemplate.class)).isSameAs(core.template());
			});
	}

	@Test
	void withoutSpringDataRedisTheRedisStoreFailsStartupWithAnExplanation() {
		this.runner.withClassLoader(new FilteredClassLoader(LettuceConnectionFactory.class)).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(LockableConfigurationException.class)
				.hasMessageContaining("lockable.store=redis needs Spring Data Redis")
				.hasMessageContaining("lockable.store=memory");
		});
	}

	@Test
	void withoutTheRedisStoreModuleTheRedisStoreFailsStartupNamingIt() {
		this.runner.withClassLoader(new FilteredClassLoader(RedisLockStore.class)).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(LockableConfigurationException.class)
				.hasMessageContaining("io.github.lockable:lockable-store-redis");
		});
	}

	@Test
	void withoutTheFileStoreModuleTheFileStoreFailsStartupNamingIt(@TempDir Path directory) {
		this.runner.withClassLoader(new FilteredClassLoader(FileLockStore.class))
			.withPropertyValues("lockable.store=file", "lockable.file.directory=" + directory)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(LockableConfigurationException.class)
					.hasMessageContaining("io.github.lockable:lockable-store-file");
			});
	}

	@Test
	void withoutSpringTxOrBeanValidationTheirBeansAreLeftOut() {
		// The class loading itself (a bean type implementing a spring-tx interface) fails only
		// where the jars are absent, which a filtered class loader cannot show: consumer/'s
		// file-store profile, which has neither, starts an application
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.transaction", "jakarta.validation"))
			.withPropertyValues("lockable.store=memory")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LockTemplate.class)
				.doesNotHaveBean("lostLockRollback")
				.doesNotHaveBean("validationBeforeLockPostProcessor"));
	}

	@Test
	void withoutSpringDataRedisTheMemoryStoreWorks() {
		this.runner.withClassLoader(new FilteredClassLoader(LettuceConnectionFactory.class))
			.withPropertyValues("lockable.store=memory")
			.run((context) -> assertThat(context).hasSingleBean(MemoryLockStore.class));
	}

	@Test
	void webApplicationsGetTheProblemDetailsAdvice() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockableAutoConfiguration.class,
					LockableWebAutoConfiguration.class))
			.withPropertyValues("lockable.store=memory")
			.run((context) -> assertThat(context).hasSingleBean(LockableExceptionHandler.class));
	}

	@Test
	void adviceOrderIsAProperty() {
		this.runner.withPropertyValues("lockable.store=memory").run((context) -> {
			assertThat(lockableAdvisors(context)).singleElement().extracting(Ordered::getOrder)
				.isEqualTo(Integer.MAX_VALUE - 1);
		});
		this.runner.withPropertyValues("lockable.store=memory", "lockable.order=42").run((context) -> {
			assertThat(lockableAdvisors(context)).singleElement().extracting(Ordered::getOrder).isEqualTo(42);
		});
	}

	@Test
	void lockedMethodRunsUnderTheLockAndDefaultsApply() {
		this.runner.withPropertyValues("lockable.store=memory", "lockable.default-conflict-policy=locked")
			.withUserConfiguration(JobConfiguration.class)
			.run((context) -> {
				Job job = context.getBean(Job.class);
				NestedJob nested = context.getBean(NestedJob.class);
				assertThat(AopUtils.isAopProxy(job)).isTrue();
				Object answer = nested.callJobWhileHoldingItsKey();
				assertThat(answer).isInstanceOf(LockConflictException.class);
				assertThat(((LockConflictException) answer).getPolicy()).isEqualTo(ConflictPolicy.LOCKED);
				assertThat(job.runs()).isZero();
				assertThat(job.run()).isEqualTo("ran");
				assertThat(job.runs()).isEqualTo(1);
			});
	}

	@Test
	void invalidPropertiesFailStartupListingEveryProblem() {
		this.runner
			.withPropertyValues("lockable.store=memory", "lockable.key-prefix=bad prefix", "lockable.max-key-length=0",
					"lockable.default-ttl=0s", "lockable.ttl-warning-ratio=1.5", "lockable.acquire-timeout=-1s",
					"lockable.default-conflict-policy=default", "lockable.redis.replicas-to-ack=-1",
					"lockable.redis.lock-delay=-1s")
			.run((context) -> {
				assertThat(context).hasFailed();
				LockableConfigurationException failure = rootCause(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(8);
				assertThat(failure.getMessage()).contains("lockable.key-prefix has a character outside")
					.contains("lockable.max-key-length must be at least 1")
					.contains("lockable.default-ttl must be positive")
					.contains("lockable.ttl-warning-ratio must be more than 0 and at most 1")
					.contains("lockable.acquire-timeout must be positive")
					.contains("lockable.default-conflict-policy must be")
					.contains("lockable.redis.replicas-to-ack must be at least 0, was -1")
					.contains("lockable.redis.lock-delay must be 0 or more, was PT-1S");
			});
	}

	@Test
	void invalidPropertiesFailStartupEvenWithTheApplicationsOwnBeans() {
		this.runner.withPropertyValues("lockable.store=memory", "lockable.default-ttl=0s")
			.withBean(LockableCore.class, () -> LockableCore.builder(new MemoryLockStore()).keyPrefix("mine").build())
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure()).getProblems())
					.containsExactly("lockable.default-ttl must be positive (at least 1ms), was PT0S");
			});
	}

	@Test
	void invalidPropertiesFailStartupWhenTheApplicationDefinesEveryBeanThatReadsThem() {
		this.runner.withPropertyValues("lockable.default-ttl=0s", "lockable.default-conflict-policy=default")
			.withBean(LockStore.class, MemoryLockStore::new)
			.withBean(LockableCore.class, () -> LockableCore.builder(new MemoryLockStore()).keyPrefix("mine").build())
			.withBean(LockTemplate.class,
					() -> LockableCore.builder(new MemoryLockStore())
						.defaultConflictPolicy(ConflictPolicy.SKIP)
						.build()
						.template())
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure()).getProblems()).containsExactly(
						"lockable.default-ttl must be positive (at least 1ms), was PT0S",
						"lockable.default-conflict-policy must be conflict, locked, too-many-requests or skip, "
								+ "was DEFAULT");
			});
	}

	@Test
	void invalidPropertiesFailStartupOfALazyApplicationWithALockableMethod() {
		this.runner.withPropertyValues("lockable.store=memory", "lockable.default-ttl=0s")
			.withInitializer((context) -> context
				.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
			.withUserConfiguration(JobConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure()).getProblems())
					.containsExactly("lockable.default-ttl must be positive (at least 1ms), was PT0S");
			});
	}

	@Test
	void twoConnectionFactoriesWithoutAPrimaryOneFailStartupAskingForOne() {
		this.runner.withBean("second", LettuceConnectionFactory.class, LettuceConnectionFactory::new)
			.withBean("third", LettuceConnectionFactory.class, LettuceConnectionFactory::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure()).getProblems()).singleElement()
					.asString()
					.contains("one RedisConnectionFactory bean, or one marked @Primary");
			});
	}

	@Test
	void badDeclarationsFailStartupNamingEveryMethod() {
		this.runner.withPropertyValues("lockable.store=memory", "job.ttl=abc")
			.withUserConfiguration(BadDeclarations.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				LockableConfigurationException failure = rootCause(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(13);
				assertThat(failure.getMessage())
					.contains("BadJobs.noSuchResolver(): no LockKeyResolver bean named 'nope'; "
							+ "LockKeyResolver beans: [project, user]")
					.contains("BadJobs.notAResolver(): bean 'notAResolver' is a class java.lang.String, "
							+ "not a LockKeyResolver")
					.contains("BadJobs.both(): set exactly one of key and resolver (both are set)")
					.contains("BadJobs.neither(): set exactly one of key and resolver (neither is set)")
					.contains("BadJobs.badTtl(): ttl 'ten seconds' is not a duration")
					.contains("BadJobs.zeroTtl(): ttl '0s' must be positive")
					.contains("BadJobs.placeholderTtl(): ttl '${job.ttl}' is not a duration")
					.contains("BadJobs.unresolvableTtl(): ttl '${missing.ttl}' cannot be resolved")
					.contains("BadJobs.badKey(): key 'admin rebuild' has a character outside A-Z a-z 0-9 : . _ -")
					.contains("BadJobs.waits(): waitTime 'soon' is not a duration such as 10s, 500ms or PT1M")
					.contains("BadJobs.waitsNegative(): waitTime '-1s' must be zero or positive")
					.contains("BadJobs.skipPrimitive(): conflictPolicy SKIP needs a return value")
					.contains("BadJobs.stream(): returns reactor.core.publisher.Flux, a stream that would hold "
							+ "the lock for its whole life");
			});
	}

	@Test
	void streamingWebResponsesAreRefused() {
		this.runner.withPropertyValues("lockable.store=memory")
			.withUserConfiguration(StreamingController.class)
			.run((context) -> {
				LockableConfigurationException failure = rootCause(context.getStartupFailure());
				assertThat(failure.getProblems()).hasSize(2)
					.anySatisfy((problem) -> assertThat(problem).contains("StreamingController.events(): returns "
							+ "org.springframework.web.servlet.mvc.method.annotation.SseEmitter"))
					.anySatisfy((problem) -> assertThat(problem).contains("StreamingController.entity(): returns "
							+ "ResponseEntity<org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody>"));
			});
	}

	@Test
	void failureAnalysisListsEveryProblem() {
		this.runner.withPropertyValues("lockable.store=memory")
			.withUserConfiguration(BadDeclarations.class)
			.run((context) -> {
				FailureAnalysis analysis = new LockableConfigurationFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).startsWith("Lockable found 13 problems:")
					.contains("    - LockableAutoConfigurationTests.BadJobs.both(): set exactly one of key and resolver");
				assertThat(analysis.getAction()).isEqualTo("Fix each @Lockable declaration listed above.");
			});
	}

	@Test
	void validDeclarationsOfEverySupportedReturnTypeStart() {
		this.runner.withPropertyValues("lockable.store=memory", "job.ttl=5s")
			.withUserConfiguration(JobConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	/** The advisors of Lockable's package-private type, whose name is all a test here can see. */
	private static List<Ordered> lockableAdvisors(ApplicationContext context) {
		return context.getBeansOfType(Advisor.class)
			.values()
			.stream()
			.filter((advisor) -> advisor.getClass().getName().equals("io.github.lockable.core.LockableAdvisor"))
			.map(Ordered.class::cast)
			.toList();
	}

	private static LockableConfigurationException rootCause(Throwable failure) {
		Throwable current = failure;
		while (current != null && !(current instanceof LockableConfigurationException)) {
			current = current.getCause();
		}
		assertThat(current).as("a LockableConfigurationException in %s", failure).isNotNull();
		return (LockableConfigurationException) current;
	}

	@Test
	void staticKeyIsCheckedAgainstTheKeyRules() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> LockableCore.builder(new MemoryLockStore()).keyPrefix("a b").build());
	}

	@Configuration(proxyBeanMethods = false)
	static class JobConfiguration {

		@Bean
		Job job() {
			return new Job();
		}

		@Bean
		NestedJob nestedJob(Job job) {
			return new NestedJob(job);
		}

	}

	static class NestedJob {

		private final Job job;

		NestedJob(Job job) {
			this.job = job;
		}

		/** Locks are not reentrant: the inner call finds the key held. */
		@Lockable(key = "job")
		public Object callJobWhileHoldingItsKey() {
			try {
				return this.job.run();
			}
			catch (LockConflictException ex) {
				return ex;
			}
		}

	}

	static class Job {

		private final AtomicInteger runs = new AtomicInteger();

		int runs() {
			return this.runs.get();
		}

		@Lockable(key = "job", ttl = "${job.ttl:10s}")
		public Object run() {
			this.runs.incrementAndGet();
			return "ran";
		}

		@Lockable(key = "optional", conflictPolicy = ConflictPolicy.SKIP)
		public Optional<String> optional() {
			return Optional.of("ran");
		}

		@Lockable(key = "future", conflictPolicy = ConflictPolicy.SKIP)
		public CompletableFuture<String> future() {
			return CompletableFuture.completedFuture("ran");
		}

		@Lockable(key = "void", conflictPolicy = ConflictPolicy.SKIP)
		public void nothing() {
		}

		@Lockable(key = "mono", conflictPolicy = ConflictPolicy.SKIP)
		public reactor.core.publisher.Mono<String> mono() {
			return reactor.core.publisher.Mono.just("ran");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadDeclarations {

		@Bean
		BadJobs badJobs() {
			return new BadJobs();
		}

		@Bean
		LockKeyResolver project() {
			return (invocation) -> "project";
		}

		@Bean
		LockKeyResolver user() {
			return (invocation) -> "user";
		}

		@Bean
		String notAResolver() {
			return "not a resolver";
		}

	}

	static class BadJobs {

		@Lockable(resolver = "nope")
		public void noSuchResolver() {
		}

		@Lockable(resolver = "notAResolver")
		public void notAResolver() {
		}

		@Lockable(key = "a", resolver = "project")
		public void both() {
		}

		@Lockable
		public void neither() {
		}

		@Lockable(key = "a", ttl = "ten seconds")
		public void badTtl() {
		}

		@Lockable(key = "a", ttl = "0s")
		public void zeroTtl() {
		}

		@Lockable(key = "a", ttl = "${job.ttl}")
		public void placeholderTtl() {
		}

		@Lockable(key = "a", ttl = "${missing.ttl}")
		public void unresolvableTtl() {
		}

		@Lockable(key = "admin rebuild")
		public void badKey() {
		}

		@Lockable(key = "a", waitTime = "soon")
		public void waits() {
		}

		@Lockable(key = "a", waitTime = "-1s")
		public void waitsNegative() {
		}

		@Lockable(key = "a", conflictPolicy = ConflictPolicy.SKIP)
		public int skipPrimitive() {
			return 1;
		}

		@Lockable(key = "a")
		public Flux<String> stream() {
			return Flux.empty();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StreamingController {

		@Lockable(key = "events")
		public SseEmitter events() {
			return new SseEmitter();
		}

		@Lockable(key = "entity")
		public org.springframework.http.ResponseEntity<org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody> entity() {
			return null;
		}

	}

}
