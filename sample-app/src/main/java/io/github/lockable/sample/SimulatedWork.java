package io.github.lockable.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How long the sample's operations pretend to work, so that two requests overlap and one of
 * them meets the lock.
 *
 * @param duration how long each locked operation takes
 */
@ConfigurationProperties("sample.work")
record SimulatedWork(Duration duration) {

	SimulatedWork {
		if (duration == null) {
			duration = Duration.ofSeconds(3);
		}
	}

	void perform() {
		try {
			Thread.sleep(this.duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
