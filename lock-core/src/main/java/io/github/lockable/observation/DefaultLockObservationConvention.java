package io.github.lockable.observation;

import io.micrometer.common.KeyValues;

import io.github.lockable.observation.LockObservationDocumentation.LowCardinalityKeyNames;

/**
 * What both default conventions share: a fixed name, a contextual name of a prefix and the
 * lock name, and the low-cardinality keys of {@link LowCardinalityKeyNames}; each phase
 * says only what its outcome is.
 */
abstract class DefaultLockObservationConvention {

	private final String name;

	private final String contextualPrefix;

	DefaultLockObservationConvention(String name, String contextualPrefix) {
		this.name = name;
		this.contextualPrefix = contextualPrefix;
	}

	/**
	 * The observation's name.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * The span's name: the prefix and the lock name.
	 * @param context the observation's context
	 * @return the contextual name
	 */
	public String getContextualName(LockObservationContext context) {
		return this.contextualPrefix + context.getLock();
	}

	/**
	 * The lock, store, outcome, exception and code key values.
	 * @param context the observation's context
	 * @return the key values
	 */
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		Throwable error = context.getError();
		return KeyValues.of(LowCardinalityKeyNames.LOCK.withValue(context.getLock()),
				LowCardinalityKeyNames.STORE.withValue(context.getStore()),
				LowCardinalityKeyNames.OUTCOME.withValue(outcome(context)),
				LowCardinalityKeyNames.EXCEPTION.withValue((error != null) ? exceptionName(error) : "none"),
				LowCardinalityKeyNames.CODE_FUNCTION.withValue(context.getMethod().getName()),
				LowCardinalityKeyNames.CODE_NAMESPACE.withValue(context.getTargetClass().getName()));
	}

	/**
	 * How the observed phase ended, as the {@code outcome} key's value.
	 * @param context the observation's context
	 * @return the outcome
	 */
	abstract String outcome(LockObservationContext context);

	private static String exceptionName(Throwable error) {
		String simpleName = error.getClass().getSimpleName();
		return simpleName.isEmpty() ? error.getClass().getName() : simpleName;
	}

}
