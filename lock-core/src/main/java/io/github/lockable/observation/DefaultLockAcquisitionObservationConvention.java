package io.github.lockable.observation;

import java.util.Locale;

import io.micrometer.common.KeyValues;

/**
 * The default convention of the acquisition observation: named
 * {@code lockable.lock.acquisition}, with the low-cardinality keys of
 * {@link LockObservationDocumentation.LowCardinalityKeyNames}.
 */
public class DefaultLockAcquisitionObservationConvention implements LockAcquisitionObservationConvention {

	private static final String NAME = "lockable.lock.acquisition";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LockObservationContext context) {
		return "lock " + context.getLock();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		LockObservationContext.Outcome outcome = context.getOutcome();
		return LockKeyValues.of(context, (outcome != null) ? outcome.name().toLowerCase(Locale.ROOT) : "unknown");
	}

}
