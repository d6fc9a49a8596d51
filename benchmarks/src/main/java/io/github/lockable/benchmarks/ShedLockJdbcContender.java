package io.github.lockable.benchmarks;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock's {@link JdbcTemplateLockProvider} as its documentation builds it, on the
 * database's clock ({@code usingDbTime()}): {@code lock(LockConfiguration)} with
 * {@code lockAtLeastFor} zero, then {@code unlock()}. Its table, {@code shedlock}, is
 * created as the documentation gives it for PostgreSQL.
 * <p>
 * ShedLock has no wait: a locked task is skipped. For the handoff, the loop its users write
 * instead: try, and sleep a fixed time between tries.
 */
final class ShedLockJdbcContender implements Contender, Handoff.WaitingLock {

	private final LockProvider provider;

	private final Duration lockAtMostFor;

	private final Duration pollSleep;

	ShedLockJdbcContender(DataSource dataSource, Duration lockAtMostFor, Duration pollSleep) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("DROP TABLE IF EXISTS shedlock");
		jdbc.execute("CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,"
				+ " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
		this.provider = new JdbcTemplateLockProvider(
				JdbcTemplateLockProvider.Configuration.builder().withJdbcTemplate(jdbc).usingDbTime().build());
		this.lockAtMostFor = lockAtMostFor;
		this.pollSleep = pollSleep;
	}

	@Override
	public String name() {
		return "ShedLock JdbcTemplateLockProvider (usingDbTime)";
	}

	Duration pollSleep() {
		return this.pollSleep;
	}

	@Override
	public Attempt on(String key, int thread) {
		return (section) -> {
			Optional<SimpleLock> lock = lock(key);
			return Contender.runHolding(lock.isPresent(), section, () -> lock.get().unlock());
		};
	}

	private Optional<SimpleLock> lock(String key) {
		return this.provider.lock(new LockConfiguration(ClockProvider.now(), key, this.lockAtMostFor, Duration.ZERO));
	}

	@Override
	public Runnable tryLock(String key, int thread, Duration maxWait) throws InterruptedException {
		long deadline = System.nanoTime() + maxWait.toNanos();
		while (true) {
			Optional<SimpleLock> lock = lock(key);
			if (lock.isPresent()) {
				return lock.get()::unlock;
			}
			if (System.nanoTime() - deadline >= 0) {
				return null;
			}
			TimeUnit.NANOSECONDS.sleep(this.pollSleep.toNanos());
		}
	}

}
