package io.github.lockable.historycheck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A history read into what the checks need: each worker's leases, writes, refusals, failed
 * acquires and {@code isHeld()} answers, and the driver's fault windows.
 */
final class History {

	static final String DRIVER = "driver";

	final List<Lease> leases = new ArrayList<>();

	/** Every write, in the order the resource saw them. */
	final List<Write> writes = new ArrayList<>();

	final List<Attempt> refusals = new ArrayList<>();

	/** Acquires that failed: the store may have granted them all the same. */
	final List<Attempt> failures = new ArrayList<>();

	/** Answers of {@code isHeld()} that were true, with when the worker asked. */
	final List<HeldAnswer> heldAnswers = new ArrayList<>();

	final List<FaultWindow> faults = new ArrayList<>();

	final long end;

	private History(List<Event> events) {
		this.end = events.isEmpty() ? 0 : events.get(events.size() - 1).micros();
		Map<String, List<Event>> byActor = new LinkedHashMap<>();
		events.forEach((event) -> byActor.computeIfAbsent(event.actor(), (actor) -> new ArrayList<>()).add(event));
		byActor.forEach((actor, own) -> {
			if (DRIVER.equals(actor)) {
				readFaults(own);
			}
			else {
				readWorker(actor, own);
			}
		});
		// In the order the resource saw them, across workers
		events.stream()
			.filter((event) -> event.type().startsWith("write-"))
			.forEach((event) -> this.writes.add(new Write(event.actor(), event.key(), event.token(), event.last(),
					event.micros(), "write-accepted".equals(event.type()))));
	}

	static History of(List<Event> events) {
		return new History(events);
	}

	private void readFaults(List<Event> events) {
		Map<String, Long> started = new HashMap<>();
		for (Event event : events) {
			if ("fault-start".equals(event.type())) {
				started.put(event.key(), event.micros());
			}
			else if ("fault-end".equals(event.type())) {
				Long start = started.remove(event.key());
				this.faults.add(new FaultWindow(event.key(), (start != null) ? start : event.micros(), event.micros()));
			}
		}
		started.forEach((fault, start) -> this.faults.add(new FaultWindow(fault, start, this.end)));
	}

	private void readWorker(String worker, List<Event> events) {
		long requested = 0;
		long ttlMicros = 0;
		Event grant = null;
		long releaseRequested = 0;
		long checked = 0;
		for (Event event : events) {
			switch (event.type()) {
				case "request" -> {
					requested = event.micros();
					ttlMicros = event.ttlMillis() * 1000;
				}
				case "refused" -> this.refusals.add(new Attempt(worker, event.key(), requested, event.micros()));
				case "failed" -> this.failures.add(new Attempt(worker, event.key(), requested, event.micros() + ttlMicros));
				case "grant" -> {
					grant = event;
					releaseRequested = 0;
				}
				case "check" -> checked = event.micros();
				case "held" -> {
					if (grant != null && Boolean.parseBoolean(event.extra())) {
						this.heldAnswers.add(new HeldAnswer(worker, event.key(), checked, grant.micros() + ttlMicros));
					}
				}
				case "release" -> releaseRequested = event.micros();
				case "released", "release-failed" -> {
					if (grant != null) {
						long releasedBy = "released".equals(event.type()) ? event.micros()
								: Math.max(event.micros(), grant.micros() + ttlMicros);
						this.leases.add(new Lease(worker, grant.key(), grant.token(), ttlMicros, requested,
								grant.micros(), releaseRequested, releasedBy));
						grant = null;
					}
				}
				default -> {
				}
			}
		}
		if (grant != null) {
			// The run ended, or the worker died, while it held the lease.
			long until = (releaseRequested != 0) ? releaseRequested : this.end;
			this.leases.add(new Lease(worker, grant.key(), grant.token(), ttlMicros, requested, grant.micros(), until,
					Math.max(until, grant.micros() + ttlMicros)));
		}
	}

	long longestTtlMicros() {
		return this.leases.stream().mapToLong(Lease::ttlMicros).max().orElse(0);
	}

	/**
	 * A write to the fenced resource.
	 */
	record Write(String worker, String key, long token, long last, long micros, boolean accepted) {
	}

	/**
	 * An acquire that did not grant: asked at {@code from}, and the key possibly held by it
	 * (for a failure) or known refused (for a refusal) by {@code to}.
	 */
	record Attempt(String worker, String key, long from, long to) {
	}

	/**
	 * A true answer of {@code isHeld()}, asked at {@code asked}, for a lease the store surely
	 * let go by {@code expiredBy}.
	 */
	record HeldAnswer(String worker, String key, long asked, long expiredBy) {
	}

}
