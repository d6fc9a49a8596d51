package io.github.lockable.core;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.observation.DefaultLockAcquisitionObservationConvention;
import io.github.lockable.observation.DefaultLockExecutionObservationConvention;
import io.github.lockable.observation.LockAcquisitionObservationConvention;
import io.github.lockable.observation.LockExecutionObservationConvention;
import io.github.lockable.observation.LockObservationContext;
import io.github.lockable.observation.LockObservationContext.Outcome;
import io.github.lockable.observation.LockObservationContext.Phase;

import org.jspecify.annotations.Nullable;
import org.springframework.util.function.SingletonSupplier;

/**
 * Starts and stops the two observations of a locked call ({@code @Lockable} or {@code LockTemplate}), the acquisition and
 * the execution. Without an observation registry, or with one that has no handler, every
 * observation is {@link Observation#NOOP}: nothing is allocated per call. Once a lock was
 * granted, nothing here throws: an observation handler's trouble must not stand between
 * the lock and its release.
 */
final class LockObservations {

	private static final Logger logger = LoggerFactory.getLogger(LockObservations.class);

	private static final LockAcquisitionObservationConvention DEFAULT_ACQUISITION = new DefaultLockAcquisitionObservationConvention();

	private static final LockExecutionObservationConvention DEFAULT_EXECUTION = new DefaultLockExecutionObservationConvention();

	private final SingletonSupplier<Settings> settings;

	private final SingletonSupplier<String> store;

	/**
	 * @param settings the registry and the user's conventions, obtained on the first call
	 * @param store the lock store's name, obtained on the first observed call
	 */
	LockObservations(Supplier<Settings> settings, Supplier<String> store) {
		this.settings = SingletonSupplier.of(settings);
		this.store = SingletonSupplier.of(store);
	}

	/**
	 * Starts the acquisition observation of a call.
	 * @param parent the caller's observation when it is not current on this thread (a
	 * {@code Mono}'s subscriber context), or {@code null} for the current one
	 */
	Observation acquisition(LockOperation method, @Nullable Observation parent) {
		Settings settings = this.settings.obtain();
		if (settings.registry().isNoop()) {
			return Observation.NOOP;
		}
		LockObservationContext context = context(Phase.ACQUISITION, method);
		Observation observation = Observation.createNotStarted(settings.acquisition(), DEFAULT_ACQUISITION,
				() -> context, settings.registry());
		if (parent != null) {
			observation.parentObservation(parent);
		}
		return observation.start();
	}

	/**
	 * Stops the acquisition observation with how it ended. Never throws.
	 * @param error the store's failure, for {@link Outcome#FAILED}
	 */
	static void acquired(Observation acquisition, Outcome outcome, @Nullable Throwable error) {
		if (acquisition.isNoop()) {
			return;
		}
		try {
			((LockObservationContext) acquisition.getContext()).setOutcome(outcome);
			stop(acquisition, error);
		}
		catch (RuntimeException ex) {
			handlerFailed(ex);
		}
	}

	/**
	 * Starts the execution observation of a call whose lock was granted, a sibling of its
	 * acquisition under the caller's observation, whichever thread the call continues on.
	 * Never throws.
	 */
	Observation execution(LockOperation method, Observation acquisition) {
		if (acquisition.isNoop()) {
			return Observation.NOOP;
		}
		try {
			Settings settings = this.settings.obtain();
			LockObservationContext context = context(Phase.EXECUTION, method);
			Observation observation = Observation.createNotStarted(settings.execution(), DEFAULT_EXECUTION,
					() -> context, settings.registry());
			ObservationView parent = acquisition.getContextView().getParentObservation();
			observation.parentObservation((parent instanceof Observation caller) ? caller : null);
			return observation.start();
		}
		catch (RuntimeException ex) {
			handlerFailed(ex);
			return Observation.NOOP;
		}
	}

	/**
	 * Stops the execution observation when the work ended. Never throws.
	 * @param error what the work threw, or its future or Mono failed with
	 */
	static void executed(Observation execution, @Nullable Throwable error) {
		if (execution.isNoop()) {
			return;
		}
		try {
			stop(execution, error);
		}
		catch (RuntimeException ex) {
			handlerFailed(ex);
		}
	}

	/**
	 * Makes the observation current on this thread until the scope is closed. Even
	 * {@link Observation#NOOP} opens a real scope, with a thread-local write and an
	 * allocation, so a no-op observation gets the no-op scope instead.
	 * @param observation the observation to make current
	 * @return the scope to close
	 */
	public static Observation.Scope openScope(Observation observation) {
		return observation.isNoop() ? Observation.Scope.NOOP : observation.openScope();
	}

	private static void stop(Observation observation, @Nullable Throwable error) {
		if (error != null) {
			observation.error(error);
		}
		observation.stop();
	}

	private LockObservationContext context(Phase phase, LockOperation method) {
		return new LockObservationContext(phase, method.lockName(), this.store.obtain(), method.method(),
				method.targetClass());
	}

	private static void handlerFailed(RuntimeException ex) {
		logger.debug("An observation handler failed; the lock is unaffected", ex);
	}

	/**
	 * What the observations need from the application.
	 * @param registry where observations go; {@link ObservationRegistry#NOOP} for none
	 * @param acquisition the user's acquisition convention, or {@code null} for the default
	 * @param execution the user's execution convention, or {@code null} for the default
	 */
	public record Settings(ObservationRegistry registry, @Nullable LockAcquisitionObservationConvention acquisition,
			@Nullable LockExecutionObservationConvention execution) {
	}

}
