package io.github.lockable.historycheck;

import java.util.ArrayList;
import java.util.List;

/**
 * A history written by hand, times in milliseconds of the resource's clock, each lease with
 * a TTL of 2 s.
 */
final class SyntheticHistory {

	static final long TTL_MILLIS = 2000;

	private final List<Event> events = new ArrayList<>();

	SyntheticHistory event(long millis, String actor, String type, String key, long token, long last,
			String extra) {
		this.events.add(new Event(millis * 1000, actor, type, key, token, last, extra));
		return this;
	}

	SyntheticHistory request(long millis, String worker, String key) {
		return event(millis, worker, "request", key, 0, 0, Long.toString(TTL_MILLIS));
	}

	SyntheticHistory grant(long millis, String worker, String key, long token) {
		return event(millis, worker, "grant", key, token, 0, Long.toString(TTL_MILLIS));
	}

	SyntheticHistory write(long millis, String worker, String key, long token, long last) {
		return event(millis, worker, (token > last) ? "write-accepted" : "write-refused", key, token, last, "");
	}

	SyntheticHistory release(long millis, String worker, String key, long token) {
		event(millis, worker, "release", key, token, 0, "");
		return event(millis, worker, "released", key, token, 0, "");
	}

	/**
	 * A whole lease: requested at {@code from}, granted 1 ms later, written 2 ms later with
	 * the last accepted token given, released at {@code to}.
	 */
	SyntheticHistory lease(String worker, String key, long token, long last, long from, long to) {
		request(from, worker, key);
		grant(from + 1, worker, key, token);
		write(from + 2, worker, key, token, last);
		return release(to, worker, key, token);
	}

	SyntheticHistory fault(String fault, long from, long to) {
		event(from, History.DRIVER, "fault-start", fault, 0, 0, "");
		return event(to, History.DRIVER, "fault-end", fault, 0, 0, "");
	}

	/**
	 * The events in the order of their times, as the resource's list holds them.
	 */
	List<Event> events() {
		List<Event> sorted = new ArrayList<>(this.events);
		sorted.sort(java.util.Comparator.comparingLong(Event::micros));
		return sorted;
	}

	CheckReport check() {
		return HistoryChecker.check(events());
	}

}
