package io.github.lockable;

/**
 * Derives the resource part of a lock key from a call, such as the project id of a
 * request that changes a project. Register implementations as beans and name them in
 * {@link Lockable#resolver()}:
 * <pre class="code">
 * &#064;Bean
 * LockKeyResolver project() {
 *     return (invocation) -&gt; "project:" + invocation.argument("projectId", UUID.class);
 * }
 * </pre>
 * The result must match {@code [A-Za-z0-9:._-]{1,N}} ({@code N} is
 * {@code lockable.max-key-length}); anything else is refused before the store is asked and
 * the caller gets HTTP 400. Build keys from validated identifiers (an id, a UUID, the
 * authenticated user's id), never from raw user input. A resolver may throw
 * {@link InvalidLockKeyException} itself.
 */
@FunctionalInterface
public interface LockKeyResolver {

	/**
	 * Returns the resource part of the key for this call; the prefix is added for you.
	 * @param invocation the call being locked
	 * @return the resource part of the key; {@code null} is refused like an empty key
	 */
	String resolve(LockInvocation invocation);

}
