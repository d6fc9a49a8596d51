package io.github.lockable.historycheck;

import org.jspecify.annotations.Nullable;

/**
 * Two workers that believed they held the same key at once.
 *
 * @param key the lock key
 * @param first the earlier lease
 * @param second the later lease
 * @param explainedBy the fault window that explains it, or {@code null}
 */
record Overlap(String key, Lease first, Lease second, @Nullable FaultWindow explainedBy) {

	@Override
	public String toString() {
		return this.key + ": " + this.first.worker() + " (token " + this.first.token() + ") and "
				+ this.second.worker() + " (token " + this.second.token() + ") for "
				+ (Math.min(this.first.releaseRequested(), this.second.releaseRequested()) - this.second.granted())
						/ 1000
				+ " ms, " + ((this.explainedBy != null) ? "explained by " + this.explainedBy.fault() : "unexplained");
	}

}
