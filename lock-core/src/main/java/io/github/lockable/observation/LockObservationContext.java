package io.github.lockable.observation;

import java.lang.reflect.Method;

import io.micrometer.observation.Observation;

import org.jspecify.annotations.Nullable;

/**
 * The context of an observation of a {@code @Lockable} call, for the
 * {@link Phase#ACQUISITION acquisition} (wait and acquire) or the
 * {@link Phase#EXECUTION execution} (the work under the lock). It names the lock by its
 * static key or its resolver, never by a resolved key, and never carries the lock's token.
 */
public class LockObservationContext extends Observation.Context {

	private final Phase phase;

	private final String lock;

	private final String store;

	private final Method method;

	private final Class<?> targetClass;

	@Nullable
	private volatile Outcome outcome;

	/**
	 * Creates a context.
	 * @param phase what is observed
	 * @param lock the lock name: the static key as declared, or the resolver's bean name
	 * @param store the name of the lock store
	 * @param method the {@code @Lockable} method
	 * @param targetClass the class of the bean the method was called on
	 */
	public LockObservationContext(Phase phase, String lock, String store, Method method, Class<?> targetClass) {
		this.phase = phase;
		this.lock = lock;
		this.store = store;
		this.method = method;
		this.targetClass = targetClass;
	}

	/**
	 * What is observed.
	 * @return the phase
	 */
	public Phase getPhase() {
		return this.phase;
	}

	/**
	 * The lock name: the static key as the annotation declares it, or the name of the
	 * resolver bean; one value per method, never a resolved key.
	 * @return the lock name
	 */
	public String getLock() {
		return this.lock;
	}

	/**
	 * The lock store's name, such as {@code redis}.
	 * @return the store name
	 */
	public String getStore() {
		return this.store;
	}

	/**
	 * The {@code @Lockable} method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * The class of the bean the method was called on.
	 * @return the target class
	 */
	public Class<?> getTargetClass() {
		return this.targetClass;
	}

	/**
	 * How the acquisition ended; set before the acquisition observation stops.
	 * @return the outcome, or {@code null} for an execution or an acquisition still running
	 */
	@Nullable
	public Outcome getOutcome() {
		return this.outcome;
	}

	/**
	 * Sets how the acquisition ended.
	 * @param outcome the outcome
	 */
	public void setOutcome(Outcome outcome) {
		this.outcome = outcome;
	}

	/**
	 * The two observations of a {@code @Lockable} call.
	 */
	public enum Phase {

		/** Waiting for and acquiring the lock, until the store answered. */
		ACQUISITION,

		/** The method's work under the lock, until it returned, threw or, for a future or Mono, ended. */
		EXECUTION

	}

	/**
	 * How an acquisition ended.
	 */
	public enum Outcome {

		/** The lock was granted; an execution follows. */
		ACQUIRED,

		/** Another holder had it (after {@code waitTime}); the call was refused as a conflict. */
		HELD,

		/** Another holder had it and the policy is {@code SKIP}: the method did not run. */
		SKIPPED,

		/**
		 * The store did not answer in time or failed; the observation carries the error.
		 * Depending on {@code lockable.store-failure}, the method was refused or ran unlocked.
		 */
		FAILED

	}

}
