package io.github.lockable.sample.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends a fixed number of {@code POST /load-check/<slot>} requests from a fixed number of
 * clients, each waiting for its answer before it sends the next, spread round-robin over
 * the instances and at random over the slots. Bounded: by the request count, and by a
 * deadline after which no client starts another request (the requests not sent are
 * counted as failures).
 *
 * @param clients how many requests are on their way at once
 * @param requests how many requests in all
 * @param deadline how long the run may take
 */
record LoadGenerator(int clients, int requests, Duration deadline) {

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * Runs the load and counts the answers.
	 * @param instances the base URIs of the instances
	 * @param conflictStatus the status the lock's conflict policy answers
	 * @return the counts
	 * @throws InterruptedException if interrupted while waiting for the clients
	 */
	LoadFigures run(List<URI> instances, int conflictStatus) throws InterruptedException {
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.build();
		Counts counts = new Counts(this.requests, instances.size());
		AtomicInteger next = new AtomicInteger();
		long start = System.nanoTime();
		long stopAt = start + this.deadline.toNanos();
		ExecutorService clientThreads = Executors.newFixedThreadPool(this.clients);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int i = 0; i < this.clients; i++) {
				running.add(clientThreads.submit(() -> {
					for (int n = next.getAndIncrement(); n < this.requests && System.nanoTime() < stopAt;
							n = next.getAndIncrement()) {
						int slot = ThreadLocalRandom.current().nextInt(LoadCheckKeys.SLOTS);
						int instance = n % instances.size();
						long sent = System.nanoTime();
						send(http, instances.get(instance).resolve("/load-check/" + slot), instance, slot,
								conflictStatus, counts);
						counts.latencies[n] = System.nanoTime() - sent;
					}
				}));
			}
			for (Future<?> client : running) {
				try {
					client.get();
				}
				catch (ExecutionException ex) {
					counts.failure("client died: " + ex.getCause());
				}
			}
		}
		finally {
			clientThreads.shutdownNow();
			clientThreads.awaitTermination(30, TimeUnit.SECONDS);
		}
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		long answered = counts.answered();
		if (answered < this.requests) {
			counts.failures.put("not sent before the deadline of " + this.deadline, this.requests - answered);
		}
		return counts.figures(this, took);
	}

	private static void send(HttpClient http, URI uri, int instance, int slot, int conflictStatus, Counts counts) {
		HttpRequest request = HttpRequest.newBuilder(uri)
			.POST(HttpRequest.BodyPublishers.noBody())
			.timeout(REQUEST_TIMEOUT)
			.build();
		try {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			int status = response.statusCode();
			if (status / 100 == 2) {
				counts.successes.incrementAndGet(slot);
				counts.successesByInstance.incrementAndGet(instance);
			}
			else if (status == conflictStatus && response.headers().firstValue("Retry-After").isPresent()) {
				counts.conflicts.increment();
			}
			else {
				counts.failure("HTTP " + status);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			counts.failure("interrupted");
		}
		catch (Exception ex) {
			counts.failure(ex.getClass().getSimpleName());
		}
	}

	private static final class Counts {

		final AtomicLongArray successes = new AtomicLongArray(LoadCheckKeys.SLOTS);

		final AtomicLongArray successesByInstance;

		final LongAdder conflicts = new LongAdder();

		final Map<String, Long> failures = new ConcurrentHashMap<>();

		/** Nanoseconds from sending each request to its answer; zero for those not sent. */
		final long[] latencies;

		Counts(int requests, int instances) {
			this.successesByInstance = new AtomicLongArray(instances);
			this.latencies = new long[requests];
		}

		void failure(String kind) {
			this.failures.merge(kind, 1L, Long::sum);
		}

		long answered() {
			return Arrays.stream(toArray(this.successes)).sum() + this.conflicts.sum()
					+ this.failures.values().stream().mapToLong(Long::longValue).sum();
		}

		LoadFigures figures(LoadGenerator load, Duration took) {
			return new LoadFigures(load.requests(), load.clients(), toArray(this.successesByInstance),
					toArray(this.successes), this.conflicts.sum(), new TreeMap<>(this.failures), took,
					LoadFigures.Latencies.of(this.latencies));
		}

		private static long[] toArray(AtomicLongArray counts) {
			long[] values = new long[counts.length()];
			for (int i = 0; i < values.length; i++) {
				values[i] = counts.get(i);
			}
			return values;
		}

	}

}
