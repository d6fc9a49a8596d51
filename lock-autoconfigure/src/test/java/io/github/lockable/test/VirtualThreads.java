package io.github.lockable.test;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Virtual threads for tests compiled for Java 17: found by reflection on Java 21 or later,
 * and the test is skipped, saying why, on older runtimes.
 */
public final class VirtualThreads {

	private VirtualThreads() {
	}

	/**
	 * {@code Executors.newVirtualThreadPerTaskExecutor()}, or a skipped test.
	 * @return an executor that starts a virtual thread per task
	 */
	public static ExecutorService perTaskExecutorOrSkip() {
		Method factory;
		try {
			factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
		}
		catch (NoSuchMethodException ex) {
			factory = null;
		}
		assumeTrue(factory != null, () -> "Virtual threads need Java 21 or later; this is Java "
				+ Runtime.version().feature() + " (CI runs this test on Java 25)");
		try {
			return (ExecutorService) factory.invoke(null);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot create a virtual thread executor", ex);
		}
	}

}
