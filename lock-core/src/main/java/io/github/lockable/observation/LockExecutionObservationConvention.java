package io.github.lockable.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The convention of the execution observation of a {@code @Lockable} call, the work under
 * the lock. Declare a bean of this type to replace
 * {@link DefaultLockExecutionObservationConvention}.
 */
public interface LockExecutionObservationConvention extends ObservationConvention<LockObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext lockContext
				&& lockContext.getPhase() == LockObservationContext.Phase.EXECUTION;
	}

}
