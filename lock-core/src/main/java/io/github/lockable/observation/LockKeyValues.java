package io.github.lockable.observation;

import io.micrometer.common.KeyValues;

import io.github.lockable.observation.LockObservationDocumentation.LowCardinalityKeyNames;

/**
 * The low-cardinality key values both default conventions share.
 */
final class LockKeyValues {

	private LockKeyValues() {
	}

	/**
	 * The lock, store, exception and code key values, and the outcome.
	 * @param context the observation's context
	 * @param outcome the outcome's value
	 * @return the key values
	 */
	static KeyValues of(LockObservationContext context, String outcome) {
		Throwable error = context.getError();
		return KeyValues.of(LowCardinalityKeyNames.LOCK.withValue(context.getLock()),
				LowCardinalityKeyNames.STORE.withValue(context.getStore()),
				LowCardinalityKeyNames.OUTCOME.withValue(outcome),
				LowCardinalityKeyNames.EXCEPTION.withValue((error != null) ? exceptionName(error) : "none"),
				LowCardinalityKeyNames.CODE_FUNCTION.withValue(context.getMethod().getName()),
				LowCardinalityKeyNames.CODE_NAMESPACE.withValue(context.getTargetClass().getName()));
	}

	private static String exceptionName(Throwable error) {
		String simpleName = error.getClass().getSimpleName();
		return simpleName.isEmpty() ? error.getClass().getName() : simpleName;
	}

}
