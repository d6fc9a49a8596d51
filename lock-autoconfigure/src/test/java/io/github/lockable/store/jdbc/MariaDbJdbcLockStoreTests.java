package io.github.lockable.store.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreHealth;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.StoredLock;
import io.github.lockable.test.Stages;
import io.github.lockable.test.jdbc.JdbcTestDatabases;
import io.github.lockable.test.jdbc.MariaDbTestServer;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The store contract and the JDBC store's own cases on a real MariaDB server, which the
 * harness starts ({@link MariaDbTestServer}) in a time zone other than UTC; plus what is
 * particular to MySQL and MariaDB: times kept in UTC whatever the server's or the session's
 * zone, the product name, the schema script.
 */
class MariaDbJdbcLockStoreTests extends JdbcLockStoreContract {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = JdbcTestDatabases.mariadb("contract");
	}

	@AfterAll
	static void closeDatabase() {
		if (dataSource != null) {
			dataSource.close();
		}
	}

	@Override
	protected DataSource dataSource() {
		return dataSource;
	}

	/** The table keeps UTC: the server's {@code CURRENT_TIMESTAMP} is five hours ahead. */
	@Override
	protected String databaseNow() {
		return "UTC_TIMESTAMP(6)";
	}

	@Test
	void theTableKeepsUtcWhileTheServerRunsInAnotherZone() {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		assertThat(jdbc.queryForObject("SELECT @@global.time_zone", String.class)).isEqualTo(MariaDbTestServer.TIME_ZONE);
		assertThat(jdbc.queryForObject("SELECT TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(), NOW() + INTERVAL 30 SECOND)",
				Long.class))
			.as("the server's clock, in minutes ahead of UTC")
			.isEqualTo(300);
		Instant before = Instant.now();
		LockHandle holder = acquired(key("utc"), LONG_TTL).handle();
		Long millisLeft = jdbc.queryForObject(
				"SELECT TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000 FROM lockable_lock WHERE lock_key = ?",
				Long.class, key("utc"));
		assertThat(millisLeft).isBetween(LONG_TTL.minusSeconds(20).toMillis(), LONG_TTL.toMillis());
		assertThat(held(key("utc"), LONG_TTL).remainingTtl()).isBetween(LONG_TTL.minusSeconds(20), LONG_TTL);
		assertThat(Stages.join(store().locks(key("utc"), 10)).locks()).singleElement()
			.extracting(StoredLock::acquiredAt)
			.satisfies((acquiredAt) -> assertThat(acquiredAt).isCloseTo(before, within(20, ChronoUnit.SECONDS)));
		assertThat(Stages.join(holder.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void sessionsInOtherTimeZonesSeeTheSameLocks() {
		try (HikariDataSource behind = sessionsInZone("-08:00"); HikariDataSource ahead = sessionsInZone("+13:00")) {
			JdbcLockStore west = new JdbcLockStore(behind);
			JdbcLockStore east = new JdbcLockStore(ahead);
			LockHandle holder = ((AcquireResult.Acquired) Stages
				.join(west.acquire(new LockRequest(key("zones"), LONG_TTL)))).handle();
			AcquireResult seen = Stages.join(east.acquire(new LockRequest(key("zones"), LONG_TTL)));
			assertThat(seen).isInstanceOfSatisfying(AcquireResult.Held.class,
					(held) -> assertThat(held.remainingTtl()).isBetween(LONG_TTL.minusSeconds(20), LONG_TTL));
			assertThat(Stages.join(holder.release())).isEqualTo(ReleaseResult.RELEASED);
			LockHandle next = ((AcquireResult.Acquired) Stages
				.join(east.acquire(new LockRequest(key("zones"), Duration.ofSeconds(2))))).handle();
			assertThat(next.lease().fencingToken()).isGreaterThan(holder.lease().fencingToken());
			assertThat(Stages.join(west.acquire(new LockRequest(key("zones"), LONG_TTL))))
				.isInstanceOf(AcquireResult.Held.class);
			assertThat(Stages.join(next.release())).isEqualTo(ReleaseResult.RELEASED);
		}
	}

	private static HikariDataSource sessionsInZone(String zone) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(MariaDbTestServer.shared().jdbcUrl("contract"));
		config.setUsername(MariaDbTestServer.USER);
		config.setMaximumPoolSize(2);
		config.setConnectionInitSql("SET time_zone = '" + zone + "'");
		return new HikariDataSource(config);
	}

	@Test
	void mysqlAndMariaDbAreOneDialect() {
		assertThat(LockTableDialect.of("MariaDB")).isSameAs(LockTableDialect.MYSQL);
		assertThat(LockTableDialect.of("MySQL")).isSameAs(LockTableDialect.MYSQL);
		assertThat(((LockStoreHealth) store()).checkHealth().details()).containsEntry("platform", "mysql");
	}

	@Test
	void theSchemaOfThePlatformCreatesACaseSensitiveTable() {
		try (HikariDataSource empty = JdbcTestDatabases.mariadbWithoutTable("schema_init")) {
			JdbcLockStoreSchema.create(empty, "custom_lock");
			JdbcLockStoreSchema.create(empty, "custom_lock");
			JdbcLockStore store = new JdbcLockStore(empty, "custom_lock", Duration.ofSeconds(2));
			LockHandle upper = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest("A", LONG_TTL))))
				.handle();
			LockHandle lower = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest("a", LONG_TTL))))
				.handle();
			assertThat(Stages.join(store.locks("", 10)).locks()).extracting(StoredLock::key).containsExactly("A", "a");
			assertThat(Stages.join(upper.release())).isEqualTo(ReleaseResult.RELEASED);
			assertThat(Stages.join(lower.release())).isEqualTo(ReleaseResult.RELEASED);
		}
	}

}
