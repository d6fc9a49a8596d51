package io.github.lockable.actuate;

import io.github.lockable.store.file.FileLockStore;
import io.github.lockable.store.file.LockDirectoryStatus;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * {@link HealthIndicator} for the file store's lock directory: {@code UP} when it exists,
 * is a writable directory, owned by this process's user and writable by nobody else;
 * {@code DOWN} with the reason otherwise.
 */
public class LockDirectoryHealthIndicator extends AbstractHealthIndicator {

	private final FileLockStore store;

	/**
	 * Creates the indicator.
	 * @param store the file store whose directory to check
	 */
	public LockDirectoryHealthIndicator(FileLockStore store) {
		super("Lock directory health check failed");
		this.store = store;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		LockDirectoryStatus status = this.store.checkDirectory();
		builder.status(status.isUsable() ? Status.UP
				: Status.DOWN);
		builder.withDetail("directory", status.directory().toString());
		if (status.owner() != null) {
			builder.withDetail("owner", status.owner());
		}
		if (status.mode() != null) {
			builder.withDetail("mode", status.mode());
		}
		if (status.problem() != null) {
			builder.withDetail("reason", status.problem());
		}
	}

}
