package io.github.lockable.autoconfigure;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * Where a future- or {@code Mono}-returning {@code @Lockable} method continues once the
 * store answered: Spring Boot's application task executor, the one {@code @Async} uses,
 * with its task decorator and virtual threads when enabled.
 */
final class ContinuationExecutors {

	static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

	private ContinuationExecutors() {
	}

	static Executor from(BeanFactory beanFactory) {
		if (beanFactory.containsBean(APPLICATION_TASK_EXECUTOR)
				&& beanFactory.getBean(APPLICATION_TASK_EXECUTOR) instanceof Executor executor) {
			return executor;
		}
		return withoutApplicationExecutor(ForkJoinPool.getCommonPoolParallelism());
	}

	/**
	 * The common pool when it has two workers or more, otherwise a thread per continuation:
	 * the rule {@code CompletableFuture} followed up to Java 24. Java 25 uses a one-worker
	 * pool too (two cores or fewer), where one blocking task of the application's would hold
	 * back every lock's call, and so its release, until it ends.
	 */
	static Executor withoutApplicationExecutor(int commonPoolParallelism) {
		if (commonPoolParallelism > 1) {
			return ForkJoinPool.commonPool();
		}
		SimpleAsyncTaskExecutor perTask = new SimpleAsyncTaskExecutor("lockable-continuation-");
		perTask.setDaemon(true);
		return perTask;
	}

}
