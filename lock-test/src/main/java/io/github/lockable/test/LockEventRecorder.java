package io.github.lockable.test;

import java.util.ArrayDeque;
import java.util.List;

import io.github.lockable.core.LockableCore;

/**
 * Keeps the calls' outcomes for {@link LockableTestKit#events()}: the newest
 * {@value #MAX_EVENTS}, so that a load test in a test context does not fill the heap.
 */
final class LockEventRecorder implements LockableCore.EventListener {

	static final int MAX_EVENTS = 10_000;

	private final ArrayDeque<LockEvent> events = new ArrayDeque<>();

	@Override
	public void lockEvent(String key, String method, Outcome outcome) {
		LockEvent event = new LockEvent(key, method, LockEvent.Outcome.valueOf(outcome.name()));
		synchronized (this.events) {
			if (this.events.size() == MAX_EVENTS) {
				this.events.removeFirst();
			}
			this.events.addLast(event);
		}
	}

	List<LockEvent> events() {
		synchronized (this.events) {
			return List.copyOf(this.events);
		}
	}

	void clear() {
		synchronized (this.events) {
			this.events.clear();
		}
	}

}
