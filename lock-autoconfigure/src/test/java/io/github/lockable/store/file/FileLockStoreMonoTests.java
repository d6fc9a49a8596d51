package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Mono} methods on the file store, subscribed on a thread that must not block as a
 * Reactor Netty event loop is (Reactor's parallel scheduler; WebFlux and Reactor Netty are
 * not on the test class path): the lock still excludes a second caller, and the thread is
 * free while the store waits for its directory guard.
 */
@SpringBootTest(classes = FileLockStoreMonoTests.MonoJobsApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE)
class FileLockStoreMonoTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@TempDir
	static Path directory;

	private static final Scheduler eventLoop = Schedulers.newParallel("event-loop", 1);

	@Autowired
	private Jobs jobs;

	@DynamicPropertySource
	static void fileStore(DynamicPropertyRegistry registry) {
		registry.add("lockable.store", () -> "file");
		registry.add("lockable.file.directory", () -> locks().toString());
		// the guard's timeout: far longer than the test waits for the event loop
		registry.add("lockable.acquire-timeout", () -> "60s");
	}

	@AfterAll
	static void stopEventLoop() {
		eventLoop.dispose();
	}

	@Test
	void aSecondCallerIsSkippedWhileTheFirstRuns() {
		Sinks.Empty<Void> gate = Sinks.empty();
		CompletableFuture<Void> entered = new CompletableFuture<>();
		AtomicInteger secondRuns = new AtomicInteger();
		CompletableFuture<String> first = onEventLoop(this.jobs.report(Mono.defer(() -> {
			entered.complete(null);
			return gate.asMono().thenReturn("first");
		})));
		assertThat(entered).succeedsWithin(WAIT);

		CompletableFuture<String> second = onEventLoop(this.jobs.report(Mono.fromSupplier(() -> {
			secondRuns.incrementAndGet();
			return "second";
		})));
		assertThat(second).succeedsWithin(WAIT).isNull();
		assertThat(secondRuns).hasValue(0);

		gate.tryEmitEmpty();
		assertThat(first).succeedsWithin(WAIT).isEqualTo("first");
		assertThat(onEventLoop(this.jobs.report(Mono.just("third")))).succeedsWithin(WAIT).isEqualTo("third");
	}

	@Test
	void theEventLoopIsFreeWhileTheStoreWaitsForItsGuard() throws IOException {
		assertThat(onEventLoop(this.jobs.report(Mono.just("before")))).succeedsWithin(WAIT).isEqualTo("before");
		CompletableFuture<String> report;
		// Inside one JVM the test's whole-file lock makes the store's lock overlap: the guard is taken
		try (FileChannel channel = FileChannel.open(locks().resolve(LockGuard.FILE_NAME), StandardOpenOption.WRITE);
				FileLock guard = channel.lock()) {
			report = onEventLoop(this.jobs.report(Mono.just("report")));
			CompletableFuture<Void> otherWork = new CompletableFuture<>();
			eventLoop.schedule(() -> otherWork.complete(null));
			assertThat(otherWork).describedAs("other work of the event loop").succeedsWithin(WAIT);
			assertThat(report).isNotDone();
		}
		assertThat(report).succeedsWithin(WAIT).isEqualTo("report");
	}

	private static CompletableFuture<String> onEventLoop(Mono<String> call) {
		return call.subscribeOn(eventLoop).toFuture();
	}

	private static Path locks() {
		return directory.resolve("locks");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class MonoJobsApplication {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

	}

	static class Jobs {

		@Lockable(key = "report", conflictPolicy = ConflictPolicy.SKIP)
		public Mono<String> report(Mono<String> work) {
			return work;
		}

	}

}
