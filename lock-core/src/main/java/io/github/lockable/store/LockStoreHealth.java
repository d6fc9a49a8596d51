package io.github.lockable.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A store that can check, without taking a lock, whether it can hold locks now: its server
 * reachable and fit, or its directory safe. The application's health endpoint reports it as
 * the {@code lockable} component.
 */
public interface LockStoreHealth {

	/**
	 * Checks the store now; an unreachable store is reported, not thrown.
	 * @return whether locks can be held, and what the check found
	 */
	Status checkHealth();

	/**
	 * What a check found.
	 *
	 * @param usable whether every lock call can succeed now
	 * @param details what the health endpoint shows: never a token or a secret
	 */
	record Status(boolean usable, Map<String, Object> details) {

		/**
		 * Creates the status.
		 * @param usable whether every lock call can succeed now
		 * @param details what the health endpoint shows
		 */
		public Status {
			details = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(details, "details must not be null")));
		}

	}

}
