package io.github.lockable.test;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.github.lockable.core.LockableCore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit's record of events: the core's outcomes map one to one, and a long test keeps
 * only the newest.
 */
class LockEventRecorderTests {

	@Test
	void everyOutcomeOfTheCoreIsALockEventOutcome() {
		assertThat(Arrays.stream(LockEvent.Outcome.values()).map(Enum::name))
			.containsExactlyElementsOf(Arrays.stream(LockableCore.EventListener.Outcome.values()).map(Enum::name).toList());
		LockEventRecorder recorder = new LockEventRecorder();
		for (LockableCore.EventListener.Outcome outcome : LockableCore.EventListener.Outcome.values()) {
			recorder.lockEvent("k", "m", outcome);
		}
		assertThat(recorder.events()).extracting(LockEvent::outcome).containsExactly(LockEvent.Outcome.values());
	}

	@Test
	void keepsTheNewestEventsOnly() {
		LockEventRecorder recorder = new LockEventRecorder();
		for (int i = 0; i < LockEventRecorder.MAX_EVENTS + 5; i++) {
			recorder.lockEvent("key:" + i, "m", LockableCore.EventListener.Outcome.ACQUIRED);
		}
		assertThat(recorder.events()).hasSize(LockEventRecorder.MAX_EVENTS);
		assertThat(recorder.events().get(0).key()).isEqualTo("key:5");
		recorder.clear();
		assertThat(recorder.events()).isEmpty();
	}

}
