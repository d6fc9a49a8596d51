package io.github.lockable;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method under a distributed lock: one call at a time per key, across
 * every instance of the application.
 * <p>
 * The annotation is metadata only. An advice reads it once per method, validates it at
 * startup, and for each call resolves the key, acquires the lock, runs the method and
 * releases the lock on every exit path. When the lock is held by another caller the
 * {@link #conflictPolicy() conflict policy} decides what happens: an HTTP error status, or
 * for jobs a silent skip.
 * <pre class="code">
 * &#064;PostMapping("/projects/{projectId}/archive")
 * &#064;Lockable(resolver = "project", ttl = "10s", conflictPolicy = ConflictPolicy.CONFLICT)
 * public void archive(&#064;PathVariable UUID projectId) { ... }
 * </pre>
 * <p>
 * Exactly one of {@link #key()} and {@link #resolver()} must be set. Like every Spring
 * proxy-based annotation it applies to calls through the bean's proxy, not to a call from
 * the same object ({@code this.archive(...)}).
 *
 * @see LockKeyResolver
 * @see ConflictPolicy
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Lockable {

	/**
	 * Static key, such as {@code admin:rebuild-index}: one lock for every call of the
	 * method. Characters {@code A-Z a-z 0-9 : . _ -} only; checked at startup.
	 * @return the static key, or empty to use {@link #resolver()}
	 */
	String key() default "";

	/**
	 * Bean name of the {@link LockKeyResolver} that derives the key from each call, such as
	 * {@code project} for one lock per project. The bean must exist at startup.
	 * @return the resolver bean name, or empty to use {@link #key()}
	 */
	String resolver() default "";

	/**
	 * How long the lock lives if it is not released: a Spring Boot duration such as
	 * {@code 10s}, {@code 500ms}, {@code PT1M} or a {@code ${placeholder}}. Choose it longer
	 * than the slowest run of the method: when it runs out, another caller may enter. Empty
	 * means {@code lockable.default-ttl}.
	 * @return the TTL
	 */
	String ttl() default "";

	/**
	 * How long to wait for a held lock before the conflict policy applies: a Spring Boot
	 * duration such as {@code 2s} or {@code 500ms}, or a {@code ${placeholder}}. How the
	 * waiter learns of the release depends on the store: on Redis, on the memory store and
	 * on PostgreSQL (JDBC store) it is woken by the holder's release; the file store and the
	 * JDBC store on other databases poll the lock, every 5ms at first and at most every
	 * 200ms, and wake at once for a release in this JVM. A {@code Mono} waits without
	 * blocking a thread. (The attribute is not called {@code wait}: {@code Object} has it.)
	 * @return the wait time, empty for none: a held lock applies the policy at once
	 */
	String waitTime() default "";

	/**
	 * What happens when another caller holds the lock.
	 * @return the conflict policy; {@link ConflictPolicy#DEFAULT} means
	 * {@code lockable.default-conflict-policy}
	 */
	ConflictPolicy conflictPolicy() default ConflictPolicy.DEFAULT;

	/**
	 * Whether to extend the lock while the method runs, every third of its TTL, for work
	 * whose length is not known in advance. The renewal stops before the release, and a
	 * renewal that finds the lock lost (it expired or was taken first) logs a WARN, counts
	 * it, and makes {@link HeldLock#isHeld()} of {@link LockContext#current()} false.
	 * @return whether to renew the lock
	 */
	boolean renew() default false;

}
