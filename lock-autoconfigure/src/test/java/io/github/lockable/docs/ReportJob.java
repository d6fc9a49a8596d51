package io.github.lockable.docs;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.Lockable;

/**
 * The docs' report job, a top-level class so that its methods print as the docs quote them
 * ({@code ReportJob.generate()}).
 */
public class ReportJob {

	@Lockable(key = "report:daily", ttl = "60s", conflictPolicy = ConflictPolicy.SKIP)
	public void generate() {
	}

	@Lockable(key = "report:hourly", ttl = "50m", conflictPolicy = ConflictPolicy.SKIP)
	public void hourlyReport() {
	}

	public void nightly() {
		this.report();
	}

	@Lockable(key = "report", conflictPolicy = ConflictPolicy.SKIP)
	public void report() {
	}

}
