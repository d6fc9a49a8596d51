package io.github.lockable.store.file;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of a file store's asynchronous calls: a few daemon threads named
 * {@code lockable-file-N}, started when needed and ended after a minute without work, and
 * a bounded queue, so that a stuck file system fills the queue and refuses new work
 * instead of growing without end.
 */
final class FileStoreThreads {

	private static final AtomicInteger counter = new AtomicInteger();

	private FileStoreThreads() {
	}

	static ThreadPoolExecutor create(Limits limits) {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(limits.threads(), limits.threads(), 1, TimeUnit.MINUTES,
				new ArrayBlockingQueue<>(limits.queue()), daemons(), new ThreadPoolExecutor.AbortPolicy());
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	private static ThreadFactory daemons() {
		return (task) -> {
			Thread thread = new Thread(task, "lockable-file-" + counter.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * How much asynchronous work a store takes at once.
	 *
	 * @param threads the most threads working on files; each call is short, so a few
	 * suffice
	 * @param queue the most calls waiting for a thread
	 */
	record Limits(int threads, int queue) {

		static final Limits DEFAULT = new Limits(4, 256);

		Limits {
			if (threads < 1 || queue < 1) {
				throw new IllegalArgumentException("threads and queue must be positive, were " + threads + " and "
						+ queue);
			}
		}

	}

}
