package io.github.lockable.core;

import java.time.Duration;
import java.util.Objects;

import io.github.lockable.StoreFailurePolicy;
import io.github.lockable.ConflictPolicy;

/**
 * What a {@code @Lockable} method gets when its annotation leaves a setting empty, and what
 * happens when the store fails. Built by the {@link LockableAdvisor} from what it is given,
 * when first needed.
 *
 * @param ttl TTL for an empty {@code ttl}
 * @param conflictPolicy policy for {@link ConflictPolicy#DEFAULT}; never DEFAULT itself
 * @param storeFailure what to do when the store does not answer
 */
record LockDefaults(Duration ttl, ConflictPolicy conflictPolicy, StoreFailurePolicy storeFailure) {

	LockDefaults {
		Objects.requireNonNull(ttl, "ttl must not be null");
		Objects.requireNonNull(conflictPolicy, "conflictPolicy must not be null");
		Objects.requireNonNull(storeFailure, "storeFailure must not be null");
		if (conflictPolicy == ConflictPolicy.DEFAULT) {
			throw new IllegalArgumentException("The default conflict policy cannot be DEFAULT");
		}
	}

}
