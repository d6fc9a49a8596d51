package io.github.lockable.sample;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A scheduled report that must not run twice at once, even with two instances of the
 * application on one machine: a run that finds the previous one still going is skipped
 * (INFO "skipped: already running"), not failed.
 */
@Component
class ReportJob {

	private static final Logger logger = LoggerFactory.getLogger(ReportJob.class);

	private final Duration duration;

	private final AtomicInteger runs = new AtomicInteger();

	ReportJob(@Value("${sample.report.duration:8s}") Duration duration) {
		this.duration = duration;
	}

	@Scheduled(initialDelayString = "${sample.report.initial-delay:2s}", fixedRateString = "${sample.report.interval:5s}")
	@Lockable(key = "report:daily", ttl = "${sample.report.ttl:1m}", conflictPolicy = ConflictPolicy.SKIP)
	public void generate() throws InterruptedException {
		int run = this.runs.incrementAndGet();
		logger.info("Report run {} started", run);
		Thread.sleep(this.duration.toMillis());
		logger.info("Report run {} finished", run);
	}

	int runs() {
		return this.runs.get();
	}

}
