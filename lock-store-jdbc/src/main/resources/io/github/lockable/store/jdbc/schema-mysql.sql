-- Lockable's lock table on MySQL 8 and MariaDB 10.5+ (InnoDB): one row per key, kept after a
-- release so that it keeps the key's last fencing token. lock_key compares byte for byte
-- (utf8mb4_bin): the default collations would take 'A' and 'a' for one lock. The times are
-- DATETIME(6) in UTC (UTC_TIMESTAMP(6)), not TIMESTAMP, which cannot hold the epoch that a
-- released row expires at, nor times past 2038; the session's time zone does not matter.
CREATE TABLE IF NOT EXISTS lockable_lock (
	lock_key VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	token VARCHAR(36) NOT NULL,
	fencing_token BIGINT NOT NULL,
	expires_at DATETIME(6) NOT NULL,
	acquired_at DATETIME(6) NOT NULL,
	holder_instance VARCHAR(255),
	holder_pid BIGINT,
	holder_method VARCHAR(1000),
	PRIMARY KEY (lock_key)
) ENGINE = InnoDB;
