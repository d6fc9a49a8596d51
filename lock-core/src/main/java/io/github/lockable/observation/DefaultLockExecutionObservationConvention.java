package io.github.lockable.observation;

/**
 * The default convention of the execution observation: named
 * {@code lockable.lock.execution}, with the low-cardinality keys of
 * {@link LockObservationDocumentation.LowCardinalityKeyNames}; the outcome is
 * {@code success}, or {@code error} when the work threw or its future or Mono failed.
 */
public class DefaultLockExecutionObservationConvention extends DefaultLockObservationConvention
		implements LockExecutionObservationConvention {

	/**
	 * Creates the default execution convention.
	 */
	public DefaultLockExecutionObservationConvention() {
		super("lockable.lock.execution", "locked ");
	}

	@Override
	String outcome(LockObservationContext context) {
		return (context.getError() != null) ? "error" : "success";
	}

}
