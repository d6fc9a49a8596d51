-- Lockable's lock table on PostgreSQL: one row per key, kept after a release so that it keeps
-- the key's last fencing token. lock_key sorts in binary ("C") order, as the listing does.
CREATE TABLE IF NOT EXISTS lockable_lock (
	lock_key VARCHAR(512) COLLATE "C" NOT NULL,
	token VARCHAR(36) NOT NULL,
	fencing_token BIGINT NOT NULL,
	expires_at TIMESTAMP WITH TIME ZONE NOT NULL,
	acquired_at TIMESTAMP WITH TIME ZONE NOT NULL,
	holder_instance VARCHAR(255),
	holder_pid BIGINT,
	holder_method VARCHAR(1000),
	PRIMARY KEY (lock_key)
);
