package io.github.lockable.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

/**
 * {@link PollBackoff}: where a waiter of a blocking store (file, JDBC) resumes. Its next
 * acquire blocks, so it must run neither on the JDK's one timer thread, which every
 * timeout of the JVM shares, nor inside another caller's release.
 */
class PollBackoffTests {

	private final PollBackoff backoff = new PollBackoff();

	@Test
	void aWaitEndedByItsTimerResumesOffTheJdkTimerThread() {
		AtomicReference<String> resumedOn = new AtomicReference<>();
		CompletableFuture<Void> resumed = this.backoff.await("timer", Duration.ofMillis(20))
			.thenRun(() -> resumedOn.set(Thread.currentThread().getName()));

		await().atMost(Duration.ofSeconds(20)).until(resumed::isDone);
		assertThat(resumedOn.get()).isNotNull().doesNotContain("CompletableFutureDelayScheduler");
	}

	@Test
	void aWaitEndedByAReleaseResumesOffTheReleasingThread() throws InterruptedException {
		CountDownLatch blocked = new CountDownLatch(1);
		CountDownLatch resume = new CountDownLatch(1);
		AtomicReference<String> resumedOn = new AtomicReference<>();
		// The longest poll: on the first, 5ms, the wait could end by its timer before the
		// release, and before thenRun, which then ran on (and blocked) this thread.
		pollLongest("released");
		CompletableFuture<Void> resumed = this.backoff.await("released", Duration.ofMinutes(1)).thenRun(() -> {
			resumedOn.set(Thread.currentThread().getName());
			blocked.countDown();
			awaitQuietly(resume);
		});
		Thread releaser = new Thread(() -> this.backoff.released("released"), "releaser");
		releaser.start();
		try {
			// the release returns while the woken waiter still blocks: it never ran the waiter's work
			releaser.join(TimeUnit.SECONDS.toMillis(20));
			assertThat(releaser.isAlive()).as("release still running the waiter's work").isFalse();
			assertThat(blocked.await(20, TimeUnit.SECONDS)).isTrue();
			assertThat(resumedOn.get()).isNotEqualTo("releaser");
		}
		finally {
			resume.countDown();
		}
		await().atMost(Duration.ofSeconds(20)).until(resumed::isDone);
	}

	@Test
	void cancellingAWaitForgetsItsWaiter() {
		// the longest poll, so the wait's own timer is unlikely to end it before the cancel
		pollLongest("cancelled");
		CompletableFuture<Void> wait = this.backoff.await("cancelled", Duration.ofMinutes(1));
		// a starved CPU may still let the 200ms timer win: then there was nothing to cancel
		assumeTrue(wait.cancel(false), "the wait's poll ended before the cancel");
		AtomicReference<String> after = new AtomicReference<>();
		this.backoff.await("cancelled", Duration.ofMinutes(1)).thenRun(() -> after.set("woken"));
		this.backoff.released("cancelled");
		await().atMost(Duration.ofSeconds(20)).until(() -> "woken".equals(after.get()));
		assertThat(wait).isCancelled();
	}

	private void pollLongest(String key) {
		while (this.backoff.next(key).compareTo(PollBackoff.MAX) < 0) {
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
