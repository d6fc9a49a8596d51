package io.github.lockable.test;

import java.util.List;

import io.github.lockable.HeldLock;

/**
 * Lockable in tests: a bean in every test context that has Lockable, with
 * {@code lockable-test} on the class path. It makes a key look held, to test what a
 * {@code @Lockable} endpoint answers when its lock is taken and that a {@code SKIP} job
 * skips; it lists what {@code @Lockable} methods and {@code LockTemplate} did; and it
 * releases every lock under the key prefix, which it does itself after every test method.
 * <pre class="code">
 * &#64;Autowired LockableTestKit locks;
 *
 * &#64;Test
 * void archiveAnswers409WhileTheProjectIsLocked() {
 *     try (HeldLock held = locks.hold("project:" + projectId)) {
 *         // POST /projects/{projectId}/archive answers 409
 *     }
 * }
 * </pre>
 */
public interface LockableTestKit {

	/**
	 * Makes a key look held by another caller until the returned lock is closed (or the kit
	 * is reset): a {@code @Lockable} method or {@code LockTemplate} call on that key then
	 * meets a held lock. The kit's own acquire is not one of the {@link #events()}.
	 * @param key the key's resource part, as {@code @Lockable} resolvers and
	 * {@code LockTemplate} take it, without the key prefix
	 * @return the held lock; close it to let callers in
	 * @throws io.github.lockable.InvalidLockKeyException when the key breaks the key rules
	 * @throws IllegalStateException when the key is held already
	 * @throws io.github.lockable.store.LockStoreException when the store did not answer
	 */
	HeldLock hold(String key);

	/**
	 * What {@code @Lockable} methods and {@code LockTemplate} did since the last reset.
	 * @return the events, oldest first
	 */
	List<LockEvent> events();

	/**
	 * Releases every lock under the key prefix, whoever holds it (only those keys, never
	 * the rest of the store), and forgets the events. Runs after every test method.
	 */
	void reset();

}
