package io.github.lockable.benchmarks;

/**
 * A lock library measured by {@link SideBySide}, used through its documented API against
 * the benchmark's Redis server.
 */
interface Contender extends AutoCloseable {

	/**
	 * How the results name this contender.
	 * @return the name, such as {@code Redisson RLock}
	 */
	String name();

	/**
	 * Prepares one thread's attempts on one key, as a user would hold on to a key name.
	 * @param key the lock's name, as the library takes it
	 * @param thread the index of the thread that will use the attempt, from 0
	 * @return the attempt, used by that thread only
	 */
	Attempt on(String key, int thread);

	@Override
	default void close() throws Exception {
	}

	/**
	 * Runs the section while a lock is held and releases it on every exit.
	 * @param taken whether the lock was taken
	 * @param section what runs while the lock is held
	 * @param release what releases the lock
	 * @return {@code taken}
	 */
	static boolean runHolding(boolean taken, Runnable section, Runnable release) {
		if (!taken) {
			return false;
		}
		try {
			section.run();
		}
		finally {
			release.run();
		}
		return true;
	}

	/**
	 * One try-lock without waiting.
	 */
	@FunctionalInterface
	interface Attempt {

		/**
		 * Tries once to take the lock; when taken, runs the section and releases the lock
		 * at once.
		 * @param section what runs while the lock is held
		 * @return whether the lock was taken
		 */
		boolean tryOnce(Runnable section) throws Exception;

	}

}
