package io.github.lockable.observation;

import io.micrometer.common.KeyValues;

/**
 * The default convention of the execution observation: named
 * {@code lockable.lock.execution}, with the low-cardinality keys of
 * {@link LockObservationDocumentation.LowCardinalityKeyNames}; the outcome is
 * {@code success}, or {@code error} when the work threw or its future or Mono failed.
 */
public class DefaultLockExecutionObservationConvention implements LockExecutionObservationConvention {

	private static final String NAME = "lockable.lock.execution";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LockObservationContext context) {
		return "locked " + context.getLock();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		return LockKeyValues.of(context, (context.getError() != null) ? "error" : "success");
	}

}
