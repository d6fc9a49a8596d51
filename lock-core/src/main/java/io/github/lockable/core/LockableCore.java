package io.github.lockable.core;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockTemplate;
import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.observation.LockAcquisitionObservationConvention;
import io.github.lockable.observation.LockExecutionObservationConvention;
import io.github.lockable.store.LockStore;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.util.function.SingletonSupplier;

/**
 * Lockable's engine, built from a store and the values of {@code lockable.*}: the one way
 * into this package for Lockable's auto-configuration, test kit and endpoint. Its parts
 * (the lock manager, the key rules, the lock flow, renewals, meters) stay package-private.
 * Applications use {@link LockTemplate} and {@code @Lockable}; they never need this class.
 * <p>
 * No method of this class names a type of an optional library, so that Spring can
 * introspect it in any application: {@link Meters} keeps Micrometer's meter registry, and
 * the post-processors that need spring-tx or Bean Validation are registered by their class.
 */
public final class LockableCore implements AutoCloseable {

	private final LockKeys keys;

	private final LockManager lockManager;

	private final LockRenewals renewals = new LockRenewals();

	private final LockMetrics metrics;

	private final LockDefaults defaults;

	private final Supplier<Executor> continuations;

	private final Supplier<LockObservations.Settings> observations;

	private final DefaultLockTemplate template;

	private LockableCore(Builder builder) {
		this.keys = new LockKeys(builder.keyPrefix, builder.maxKeyLength);
		this.metrics = (builder.meters != null) ? (LockMetrics) builder.meters : LockMetrics.NONE;
		this.lockManager = new LockManager(builder.store, builder.ttlWarningRatio, this.metrics,
				LockHolders.instance(builder.applicationName), builder.listener);
		this.defaults = new LockDefaults(builder.defaultTtl, builder.defaultConflictPolicy, builder.storeFailure);
		this.continuations = SingletonSupplier.of(builder.continuations);
		Supplier<ObservationRegistry> registry = builder.observationRegistry;
		Supplier<@Nullable LockAcquisitionObservationConvention> acquisition = builder.acquisitionConvention;
		Supplier<@Nullable LockExecutionObservationConvention> execution = builder.executionConvention;
		this.observations = () -> new LockObservations.Settings(registry.get(), acquisition.get(), execution.get());
		this.template = new DefaultLockTemplate(flow(), this.keys, this.defaults.conflictPolicy());
	}

	/**
	 * Starts a core on a store.
	 * @param store where locks live
	 * @return a builder with the defaults of {@code lockable.*}
	 */
	public static Builder builder(LockStore store) {
		return new Builder(store);
	}

	/**
	 * The store locks live in.
	 * @return the store
	 */
	public LockStore store() {
		return this.lockManager.store();
	}

	/**
	 * The template, on a flow of its own with the advice's log lines, meters, observations
	 * and outage throttle.
	 * @return the template
	 */
	public LockTemplate template() {
		return this.template;
	}

	/**
	 * The start of every full key, for listing this application's locks.
	 * @return {@code <prefix>:}
	 */
	public String keyPrefix() {
		return this.keys.prefix();
	}

	/**
	 * What is wrong with a key, without repeating it.
	 * @param key the resource part of a key, possibly {@code null}
	 * @return {@code null} when it obeys the key rules, otherwise a phrase such as "is 230
	 * characters, more than 200"
	 */
	public @Nullable String keyProblem(@Nullable String key) {
		return this.keys.problem(key);
	}

	/**
	 * The full key of a resource part.
	 * @param key the resource part of a key
	 * @return {@code <prefix>:<key>}
	 * @throws IllegalArgumentException if the key breaks the rules; the message does not
	 * repeat it
	 */
	public String fullKey(String key) {
		return this.keys.fullKey(key);
	}

	/**
	 * What is wrong with a key prefix, without repeating it.
	 * @param prefix a value of {@code lockable.key-prefix}
	 * @return {@code null} when it obeys the key rules, otherwise a phrase
	 */
	public static @Nullable String keyPrefixProblem(@Nullable String prefix) {
		return LockKeys.problem(prefix, Integer.MAX_VALUE);
	}

	/**
	 * The advisor that runs {@code @Lockable} methods under a lock and checks their
	 * declarations once all singletons exist. It asks for the core on its first use, so
	 * that creating it, while bean post-processors are being registered, creates no other
	 * bean early.
	 * @param core supplies the core, asked on first use
	 * @param order the advisor's order, asked when proxies are created
	 * @return the advisor
	 */
	public static Advisor advisor(Supplier<LockableCore> core, IntSupplier order) {
		SingletonSupplier<LockableCore> once = SingletonSupplier.of(core);
		LockableAdvisor advisor = new LockableAdvisor(() -> once.obtain().defaults, () -> once.obtain().keys,
				() -> once.obtain().lockManager, () -> once.obtain().continuations.get(),
				() -> once.obtain().renewals);
		advisor.setOrder(order);
		advisor.setObservations(() -> once.obtain().observations.get());
		return advisor;
	}

	/**
	 * Registers the post-processor that moves method validation in front of the lock, as
	 * {@code validationBeforeLockPostProcessor} unless a bean of that name exists. By its
	 * class, as infrastructure, so that the auto-proxy creator skips it by its type before
	 * creating it (see {@link ValidationBeforeLockPostProcessor}). Needs Bean Validation.
	 * @param registry the registry
	 */
	public static void registerValidationBeforeLock(BeanDefinitionRegistry registry) {
		RootBeanDefinition definition = new RootBeanDefinition(ValidationBeforeLockPostProcessor.class);
		definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
		registerIfAbsent(registry, "validationBeforeLockPostProcessor", definition);
	}

	/**
	 * Registers the listener that fails the commit of a transaction begun inside a locked
	 * call whose lock was lost, as {@code lostLockRollback} unless a bean of that name
	 * exists; Spring Boot applies it to the transaction managers it configures. Needs
	 * spring-tx.
	 * @param registry the registry
	 */
	public static void registerLostLockRollback(BeanDefinitionRegistry registry) {
		registerIfAbsent(registry, "lostLockRollback", new RootBeanDefinition(LostLockRollback.class));
	}

	private static void registerIfAbsent(BeanDefinitionRegistry registry, String name, BeanDefinition definition) {
		if (!registry.containsBeanDefinition(name)) {
			registry.registerBeanDefinition(name, definition);
		}
	}

	/** Stops renewing: the locks that still renew run out with their TTL. */
	@Override
	public void close() {
		this.renewals.close();
	}

	private LockFlow flow() {
		return new LockFlow(() -> this.lockManager, this.defaults::storeFailure, this.continuations,
				() -> this.renewals, this.observations);
	}

	LockManager lockManager() {
		return this.lockManager;
	}

	LockKeys keys() {
		return this.keys;
	}

	LockRenewals renewals() {
		return this.renewals;
	}

	LockMetrics metrics() {
		return this.metrics;
	}

	/**
	 * Lockable's meters on a Micrometer registry, given to {@link Builder#meters(Meters)}.
	 * A type of its own so that the core names Micrometer's registry nowhere else.
	 */
	public sealed interface Meters permits LockMetrics {

		/**
		 * Meters on a registry.
		 * @param registry where the meters are registered
		 * @param store the store's name, the {@code store} tag of every meter
		 * @return the meters
		 */
		static Meters micrometer(MeterRegistry registry, String store) {
			return new MicrometerLockMetrics(registry, store);
		}

	}

	/** Hears the outcome of every lock call, for Lockable's test kit. */
	public interface EventListener {

		/**
		 * One outcome of one call.
		 * @param key the key's resource part, without the key prefix
		 * @param method the caller, {@code Type.name(Args)} or {@code LockTemplate}
		 * @param outcome what happened
		 */
		void lockEvent(String key, String method, Outcome outcome);

		/** What happened to a call's lock. */
		enum Outcome {

			/** The lock was granted. */
			ACQUIRED,

			/** The call ended and its lock was released. */
			RELEASED,

			/** The lock was held by another caller, and the call was refused. */
			REFUSED,

			/** The lock was held by another caller, and the call was skipped (policy SKIP). */
			SKIPPED,

			/** The call ended and its release found the lock gone: another caller could get in. */
			LOST,

			/** The store did not answer the acquire or the release. */
			STORE_FAILED

		}

	}

	/** Builds a {@link LockableCore}; each value defaults as its {@code lockable.*} property. */
	public static final class Builder {

		private final LockStore store;

		private String keyPrefix = "lock";

		private int maxKeyLength = 200;

		private double ttlWarningRatio = 0.8;

		private Duration defaultTtl = Duration.ofSeconds(30);

		private ConflictPolicy defaultConflictPolicy = ConflictPolicy.CONFLICT;

		private StoreFailurePolicy storeFailure = StoreFailurePolicy.FAIL;

		private @Nullable String applicationName;

		private Supplier<Executor> continuations = ForkJoinPool::commonPool;

		private Supplier<ObservationRegistry> observationRegistry = () -> ObservationRegistry.NOOP;

		private Supplier<@Nullable LockAcquisitionObservationConvention> acquisitionConvention = () -> null;

		private Supplier<@Nullable LockExecutionObservationConvention> executionConvention = () -> null;

		private @Nullable Meters meters;

		private @Nullable EventListener listener;

		private Builder(LockStore store) {
			this.store = Objects.requireNonNull(store, "store must not be null");
		}

		/**
		 * Sets the namespace before every key ({@code lockable.key-prefix}).
		 * @param keyPrefix the prefix, itself obeying the key rules
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * Sets the longest resource part of a key ({@code lockable.max-key-length}).
		 * @param maxKeyLength at least 1
		 * @return this builder
		 */
		public Builder maxKeyLength(int maxKeyLength) {
			this.maxKeyLength = maxKeyLength;
			return this;
		}

		/**
		 * Sets the share of the TTL after which a holder is warned about
		 * ({@code lockable.ttl-warning-ratio}).
		 * @param ttlWarningRatio in (0, 1]
		 * @return this builder
		 */
		public Builder ttlWarningRatio(double ttlWarningRatio) {
			this.ttlWarningRatio = ttlWarningRatio;
			return this;
		}

		/**
		 * Sets the TTL of a method whose annotation leaves it empty
		 * ({@code lockable.default-ttl}).
		 * @param defaultTtl the TTL
		 * @return this builder
		 */
		public Builder defaultTtl(Duration defaultTtl) {
			this.defaultTtl = Objects.requireNonNull(defaultTtl, "defaultTtl must not be null");
			return this;
		}

		/**
		 * Sets what {@link ConflictPolicy#DEFAULT} means
		 * ({@code lockable.default-conflict-policy}).
		 * @param defaultConflictPolicy any policy but {@code DEFAULT}
		 * @return this builder
		 */
		public Builder defaultConflictPolicy(ConflictPolicy defaultConflictPolicy) {
			this.defaultConflictPolicy = Objects.requireNonNull(defaultConflictPolicy,
					"defaultConflictPolicy must not be null");
			return this;
		}

		/**
		 * Sets what a call does when the store does not answer ({@code lockable.store-failure}).
		 * @param storeFailure the policy
		 * @return this builder
		 */
		public Builder storeFailure(StoreFailurePolicy storeFailure) {
			this.storeFailure = Objects.requireNonNull(storeFailure, "storeFailure must not be null");
			return this;
		}

		/**
		 * Sets the application's name, part of how the store names this instance as a
		 * lock's holder ({@code spring.application.name}).
		 * @param applicationName the name, or {@code null}
		 * @return this builder
		 */
		public Builder applicationName(@Nullable String applicationName) {
			this.applicationName = applicationName;
			return this;
		}

		/**
		 * Sets where asynchronous calls continue once the store answered, so that no user
		 * code runs on the store client's I/O threads or on the JDK's timeout thread.
		 * @param continuations supplies the executor, asked on first use
		 * @return this builder
		 */
		public Builder continuations(Supplier<Executor> continuations) {
			this.continuations = Objects.requireNonNull(continuations, "continuations must not be null");
			return this;
		}

		/**
		 * Sets the registry calls are observed in, and the conventions of the observations.
		 * Each is asked on the first call, not before: Spring Boot configures its registry's
		 * handlers after the advisor exists.
		 * @param registry supplies the registry
		 * @param acquisition supplies the acquisition convention, or {@code null} for the
		 * default
		 * @param execution supplies the execution convention, or {@code null} for the default
		 * @return this builder
		 */
		public Builder observations(Supplier<ObservationRegistry> registry,
				Supplier<@Nullable LockAcquisitionObservationConvention> acquisition,
				Supplier<@Nullable LockExecutionObservationConvention> execution) {
			this.observationRegistry = Objects.requireNonNull(registry, "registry must not be null");
			this.acquisitionConvention = Objects.requireNonNull(acquisition, "acquisition must not be null");
			this.executionConvention = Objects.requireNonNull(execution, "execution must not be null");
			return this;
		}

		/**
		 * Sets the meters of every acquire, release and renewal.
		 * @param meters the meters, or {@code null} for none
		 * @return this builder
		 */
		public Builder meters(@Nullable Meters meters) {
			this.meters = meters;
			return this;
		}

		/**
		 * Sets the listener that hears the outcome of every call.
		 * @param listener the listener, or {@code null} for none
		 * @return this builder
		 */
		public Builder listener(@Nullable EventListener listener) {
			this.listener = listener;
			return this;
		}

		/**
		 * Builds the core.
		 * @return the core
		 * @throws IllegalArgumentException if a value is out of its range
		 */
		public LockableCore build() {
			return new LockableCore(this);
		}

	}

}
