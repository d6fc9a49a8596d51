package io.github.lockable.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;

/**
 * How one {@link Lockable @Lockable} method locks, as worked out at startup: defaults and
 * placeholders resolved. It holds no argument value. The {@code lockable} Actuator endpoint
 * shows these; {@link LockableAdvice#lockableMethods} lists them.
 *
 * @param method the method, as {@code ClassName.method(ParameterTypes)}
 * @param key the full static key, or {@code null} when a resolver makes the key
 * @param resolver the name of the {@code LockKeyResolver} bean, or {@code null} for a
 * static key
 * @param ttl the lock's TTL
 * @param waitTime how long a call waits for a held lock; zero tries once
 * @param conflictPolicy what a call does when the lock is held
 * @param renew whether the lock is extended while the method runs
 * @param returnKind how the method returns: {@code VALUE}, {@code OPTIONAL},
 * {@code COMPLETION_STAGE} or {@code MONO}
 */
record LockableMethodDescriptor(String method, @Nullable String key, @Nullable String resolver, Duration ttl,
		Duration waitTime, ConflictPolicy conflictPolicy, boolean renew, String returnKind) {

}
