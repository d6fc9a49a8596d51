package io.github.lockable.observation;

import java.util.Locale;

/**
 * The default convention of the acquisition observation: named
 * {@code lockable.lock.acquisition}, with the low-cardinality keys of
 * {@link LockObservationDocumentation.LowCardinalityKeyNames}.
 */
public class DefaultLockAcquisitionObservationConvention extends DefaultLockObservationConvention
		implements LockAcquisitionObservationConvention {

	/**
	 * Creates the default acquisition convention.
	 */
	public DefaultLockAcquisitionObservationConvention() {
		super("lockable.lock.acquisition", "lock ");
	}

	@Override
	String outcome(LockObservationContext context) {
		LockObservationContext.Outcome outcome = context.getOutcome();
		return (outcome != null) ? outcome.name().toLowerCase(Locale.ROOT) : "unknown";
	}

}
