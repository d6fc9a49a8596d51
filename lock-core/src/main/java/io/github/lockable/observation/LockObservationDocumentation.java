package io.github.lockable.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of a {@code @Lockable} call. Their names differ from Lockable's meters
 * ({@code lockable.acquire}, {@code lockable.held}, ...), so that the timers a meter
 * observation handler derives from them never clash with those.
 */
public enum LockObservationDocumentation implements ObservationDocumentation {

	/**
	 * Waiting for and acquiring the lock: {@code lockable.lock.acquisition}.
	 */
	ACQUISITION {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockAcquisitionObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeyNames.values();
		}

	},

	/**
	 * The method's work under the lock: {@code lockable.lock.execution}.
	 */
	EXECUTION {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockExecutionObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeyNames.values();
		}

	};

	/**
	 * The low-cardinality keys of both observations.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/** The lock name: the static key as declared, or the resolver's bean name. */
		LOCK {
			@Override
			public String asString() {
				return "lock";
			}
		},

		/** The lock store's name. */
		STORE {
			@Override
			public String asString() {
				return "store";
			}
		},

		/**
		 * Acquisition: {@code acquired}, {@code held}, {@code skipped} or {@code failed};
		 * execution: {@code success} or {@code error}.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		/** The simple name of the exception that ended the observation, or {@code none}. */
		EXCEPTION {
			@Override
			public String asString() {
				return "exception";
			}
		},

		/** The name of the {@code @Lockable} method. */
		CODE_FUNCTION {
			@Override
			public String asString() {
				return "code.function";
			}
		},

		/** The class of the bean the method was called on. */
		CODE_NAMESPACE {
			@Override
			public String asString() {
				return "code.namespace";
			}
		}

	}

}
