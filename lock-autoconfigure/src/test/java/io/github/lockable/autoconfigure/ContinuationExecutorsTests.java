package io.github.lockable.autoconfigure;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

class ContinuationExecutorsTests {

	@Test
	void applicationTaskExecutorWhenThereIsOne() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		beanFactory.registerSingleton(ContinuationExecutors.APPLICATION_TASK_EXECUTOR, executor);
		assertThat(ContinuationExecutors.from(beanFactory)).isSameAs(executor);
	}

	@Test
	void aBeanOfThatNameThatIsNoExecutorIsNotUsed() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerSingleton(ContinuationExecutors.APPLICATION_TASK_EXECUTOR, "not an executor");
		assertThat(ContinuationExecutors.from(beanFactory)).isNotInstanceOf(String.class)
			.isInstanceOfAny(ForkJoinPool.class, SimpleAsyncTaskExecutor.class);
	}

	@Test
	void commonPoolWhenItHasTwoWorkersOrMore() {
		assertThat(ContinuationExecutors.withoutApplicationExecutor(2)).isSameAs(ForkJoinPool.commonPool());
	}

	@Test
	void aBlockedTaskDoesNotHoldBackTheNextWhenTheCommonPoolHasOneWorker() throws InterruptedException {
		Executor continuations = ContinuationExecutors.withoutApplicationExecutor(1);
		assertThat(continuations).isNotSameAs(ForkJoinPool.commonPool());
		CountDownLatch blockedMayEnd = new CountDownLatch(1);
		CountDownLatch nextRan = new CountDownLatch(1);
		try {
			continuations.execute(() -> awaitQuietly(blockedMayEnd));
			continuations.execute(nextRan::countDown);
			assertThat(nextRan.await(10, TimeUnit.SECONDS)).as("the next continuation ran").isTrue();
		}
		finally {
			blockedMayEnd.countDown();
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
