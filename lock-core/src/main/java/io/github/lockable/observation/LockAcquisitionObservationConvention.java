package io.github.lockable.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The convention of the acquisition observation of a {@code @Lockable} call. Declare a bean
 * of this type to replace {@link DefaultLockAcquisitionObservationConvention}.
 */
public interface LockAcquisitionObservationConvention extends ObservationConvention<LockObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext lockContext
				&& lockContext.getPhase() == LockObservationContext.Phase.ACQUISITION;
	}

}
