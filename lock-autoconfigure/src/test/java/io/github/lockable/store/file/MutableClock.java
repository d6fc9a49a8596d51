package io.github.lockable.store.file;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A wall clock that tests move by hand.
 */
final class MutableClock extends Clock {

	private final AtomicReference<Instant> now;

	MutableClock(Instant now) {
		this.now = new AtomicReference<>(now);
	}

	void advance(Duration duration) {
		this.now.updateAndGet((instant) -> instant.plus(duration));
	}

	@Override
	public Instant instant() {
		return this.now.get();
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException();
	}

}
